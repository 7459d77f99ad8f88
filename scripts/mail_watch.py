"""`make run` mails to files in .run/mail/ and prints each new mail's recipients, subject
and links in a box: a verification link must not hide among thousands of log lines."""

import email
import email.policy
import re
from pathlib import Path

SEPARATOR = b"\n" + b"-" * 79 + b"\n"  # Django's file backend writes one after each mail
LINK = re.compile(r"https?://[^\s<>\"')]+")


def use_mail_files(env: dict, run_dir: Path) -> Path | None:
    """Unless the environment chose a mail backend, mail goes to files we watch."""
    if env.get("EMAIL_URL") or env.get("EMAIL_HOST"):
        return None
    folder = run_dir / "mail"
    folder.mkdir(parents=True, exist_ok=True)
    # four slashes: the URL's path is read without its first one (filemail:////var/mail)
    env["EMAIL_URL"] = f"filemail:///{folder.resolve()}"
    return folder


def _text(message) -> str:
    part = message.get_body(preferencelist=("plain", "html"))
    return part.get_content() if part is not None else ""


def summary(raw: bytes) -> str:
    message = email.message_from_bytes(raw, policy=email.policy.default)
    links = list(dict.fromkeys(LINK.findall(_text(message))))
    lines = [f"Mail to {message['To']}: {message['Subject']}", *links]
    width = max(len(line) for line in lines)
    bar = "+" + "-" * (width + 2) + "+"
    return "\n".join([bar, *(f"| {line.ljust(width)} |" for line in lines), bar])


class MailWatch:
    """Reads what the file backend appended since the last look (it appends to one file
    per connection; a mail is complete once its separator is written)."""

    def __init__(self, folder: Path):
        self.folder = folder
        self.read = {path: path.stat().st_size for path in folder.glob("*.log")}

    def new_mail(self) -> list[str]:
        found = []
        for path in sorted(self.folder.glob("*.log"), key=lambda p: p.stat().st_mtime_ns):
            start = self.read.get(path, 0)
            data = path.read_bytes()[start:]
            end = data.rfind(SEPARATOR)
            if end < 0:
                continue
            self.read[path] = start + end + len(SEPARATOR)
            found += [summary(chunk) for chunk in data[:end].split(SEPARATOR) if chunk.strip()]
        return found
