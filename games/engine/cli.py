"""The `blaze_replay` contract of RECORD.md: JSON Lines in, one result line per record."""

import json
import sys

from .record import replay_line

JSON_WHITESPACE = " \t\r\n"  # RFC 8259's; a blank line holds only these


def replay_stream(lines, out) -> int:
    """Write one result per non-blank line of `lines` (bytes or str); return the count."""
    count = 0
    for raw in lines:
        if isinstance(raw, bytes):
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError:
                result = {"ok": False, "round": None, "ply": None,
                          "error": "the line is not valid UTF-8"}
                out.write(json.dumps(result) + "\n")
                count += 1
                continue
        else:
            line = raw
        if count == 0:
            line = line.lstrip("\ufeff")  # a byte-order mark some editors put first
        if not line.strip(JSON_WHITESPACE):  # a line of other white space is not JSON
            continue
        try:
            result = replay_line(line)
        except Exception as e:  # a bug must not cost the other records their answers
            result = {"ok": False, "round": None, "ply": None, "error": f"internal error: {e!r}"}
        out.write(json.dumps(result) + "\n")
        count += 1
    out.flush()
    return count


def replay_file(path: str, out=sys.stdout) -> int:
    """Replay FILE (or '-' for standard input); raises OSError when it cannot be read."""
    if path == "-":
        return replay_stream(sys.stdin.buffer, out)
    with open(path, "rb") as f:
        return replay_stream(f, out)


def main(argv=None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: blaze_replay FILE   (FILE may be - for standard input)", file=sys.stderr)
        return 2
    try:
        replay_file(argv[0])
    except OSError as e:
        # as Django's command says it (manage.py takes either path)
        print(f"CommandError: cannot read {argv[0]}: {e.strerror or e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
