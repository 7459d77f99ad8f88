"""Instructions a move costs the web process: bench.movebench run under Valgrind's
callgrind at two lengths, the difference divided by the moves between them.

    python -m bench.instructions [--moves 100 300] [--against REV] [--processes N]

CPU time on a shared machine drifts by a quarter from one run to the next, more than most
changes move it; the count of instructions does not (two runs of one commit agree within
about 0.2%), so a change is measured against its parent by this count. Each step of the
loop is a GET of the mover's view and the move's POST through Django's full request path
(the test client's share included, the same on both sides of a comparison);
`--processes N` is movebench's (the moves dealt among N simulated processes, each catching
up from its own last move, as web processes do under load). `--against REV` counts that
revision too, in a git worktree of its own (with this checkout's movebench, and the
compiled build, built anew there where an engine or bot source differs), and prints the
change in percent. Needs valgrind (Debian's package) and the services of the environment,
as movebench does; each count takes a few minutes.
"""

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _count(moves: int, games: int, tree: Path, processes: int) -> int:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    out = subprocess.run(
        ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null",
         sys.executable, str(ROOT / "bench" / "movebench.py"), "--moves", str(moves),
         "--games-ahead", str(games), "--processes", str(processes)],
        capture_output=True, text=True, check=True, env=env, cwd=tree)
    found = re.search(r"Collected : (\d+)", out.stderr)
    if found is None:
        raise SystemExit(f"callgrind printed no count:\n{out.stderr[-2000:]}")
    return int(found.group(1))


def per_move(short: int, long: int, tree: Path, processes: int = 1) -> float:
    # Both runs make the same games before their first move (the deals are random, so a
    # run making its games as it goes would count a varying number of them): a game of
    # four lasts 150 moves or so, seldom under 50.
    games = long // 25 + 2
    counts = [_count(short, games, tree, processes), _count(long, games, tree, processes)]
    return (counts[1] - counts[0]) / (long - short)


def _worktree(rev: str, into: Path) -> Path:
    tree = into / "tree"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", "-q", str(tree),
                    rev], check=True)
    built = [ROOT / "games" / "_compiled.json", *ROOT.glob("games/**/*.so")]
    for path in built:
        if path.exists():
            shutil.copy2(path, tree / path.relative_to(ROOT))
    # a compiled module whose source differs there would run as plain Python: build anew
    if built[0].exists() and subprocess.run(
            ["git", "-C", str(ROOT), "diff", "--quiet", rev, "--", "games/engine",
             "games/bots"]).returncode:
        subprocess.run([sys.executable, str(tree / "scripts" / "build_compiled.py")],
                       check=True, cwd=tree, capture_output=True)
    return tree


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, nargs=2, default=[100, 300],
                        metavar=("SHORT", "LONG"))
    parser.add_argument("--against", metavar="REV", help="a revision to count as well")
    parser.add_argument("--processes", type=int, default=1, metavar="N",
                        help="movebench's --processes: moves dealt among N simulated "
                             "processes' caches")
    args = parser.parse_args(argv)
    short, long = sorted(args.moves)
    if short < 1 or long <= short:
        parser.error("--moves takes two different lengths of at least 1 move")
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (apt-get install -y valgrind)")
    if args.against and subprocess.run(
            ["git", "-C", str(ROOT), "rev-parse", "--verify", "-q", args.against + "^{commit}"],
            capture_output=True).returncode:
        parser.error(f"--against: no such revision: {args.against}")
    if args.processes < 1:
        parser.error("--processes takes at least 1")
    here = per_move(short, long, ROOT, args.processes)
    print(f"{here / 1e6:.2f} million instructions a move (GET of the view and POST), "
          f"{short} and {long} moves"
          + (f", {args.processes} processes" if args.processes > 1 else ""))
    if args.against:
        with tempfile.TemporaryDirectory() as scratch:
            tree = _worktree(args.against, Path(scratch))
            try:
                there = per_move(short, long, tree, args.processes)
            finally:
                subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force",
                                str(tree)], check=False)
        print(f"{there / 1e6:.2f} million at {args.against}: "
              f"{(here - there) / there * 100:+.1f}% here")
    return 0


if __name__ == "__main__":
    sys.exit(main())
