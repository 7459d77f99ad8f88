"""The README stays short, and every file it or the Makefile points to exists."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_readme_is_read_in_five_minutes():
    assert len((ROOT / "README.md").read_text().splitlines()) <= 150


def test_every_docs_file_the_readme_the_makefile_and_the_docs_name_exists():
    named = set()
    for source in [ROOT / "README.md", ROOT / "Makefile", *sorted((ROOT / "docs").glob("*.md"))]:
        named |= {(source.name, path) for path in
                  re.findall(r"\bdocs/[\w./-]+\.(?:md|conf)\b", source.read_text())}
    missing = sorted((source, path) for source, path in named if not (ROOT / path).exists())
    assert missing == []
