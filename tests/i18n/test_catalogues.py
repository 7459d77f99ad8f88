"""The Japanese and Spanish catalogues: complete, compiled, and in step with the code."""

import shutil
import subprocess
import sys
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
LANGUAGES = ["ja", "es"]
DOMAINS = ["django", "djangojs"]
# djangojs exists once static/js marks a string; the makemessages test below notices if not
CATALOGUES = [
    (lang, domain, path)
    for lang in LANGUAGES for domain in DOMAINS
    for path in [ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"]
    if domain == "django" or path.exists()
]


def _entries(po: polib.POFile) -> dict:
    return {(e.msgctxt, e.msgid): e for e in po if not e.obsolete}


@pytest.mark.parametrize("lang,domain,path", CATALOGUES, ids=lambda v: str(v)[-20:])
def test_every_entry_is_translated_and_none_is_fuzzy(lang, domain, path):
    po = polib.pofile(str(path))
    untranslated = [e.msgid for e in po.untranslated_entries()]
    fuzzy = [e.msgid for e in po.fuzzy_entries()]
    obsolete = [e.msgid for e in po.obsolete_entries()]
    assert not untranslated, f"{path.name} ({lang}) has untranslated entries: {untranslated}"
    assert not fuzzy, f"{path.name} ({lang}) has fuzzy entries: {fuzzy}"
    assert not obsolete, f"{path.name} ({lang}) keeps obsolete entries: {obsolete}"
    assert len(po) > 0


@pytest.mark.parametrize("lang,domain,path", CATALOGUES, ids=lambda v: str(v)[-20:])
def test_the_committed_mo_file_is_the_compiled_po_file(lang, domain, path):
    po = polib.pofile(str(path))
    mo = polib.mofile(str(path.with_suffix(".mo")))
    compiled = {(e.msgctxt, e.msgid): (e.msgstr, e.msgstr_plural) for e in mo}
    for key, entry in _entries(po).items():
        assert key in compiled, f"{key} is not in the .mo file: run make messages"
        msgstr, plural = compiled[key]
        if entry.msgid_plural:
            assert {int(k): v for k, v in plural.items()} == {
                int(k): v for k, v in entry.msgstr_plural.items()}, key
        else:
            assert msgstr == entry.msgstr, f"{key}: .mo is stale, run make messages"


@pytest.mark.parametrize("lang,domain,path", CATALOGUES, ids=lambda v: str(v)[-20:])
def test_the_catalogues_compile_with_format_checks(lang, domain, path, tmp_path):
    if not shutil.which("msgfmt"):
        pytest.skip("GNU gettext's msgfmt is not installed (apt-get install gettext)")
    result = subprocess.run(
        ["msgfmt", "--check", "-o", str(tmp_path / "out.mo"), str(path)],
        capture_output=True, text=True,
    )
    assert result.returncode == 0, result.stderr


def _copy_project(target: Path) -> None:
    skip = {".venv", ".git", "staticfiles", "node_modules", ".run", "__pycache__"}

    def ignore(directory, names):
        return [n for n in names if n in skip or n.endswith((".sqlite3", ".mo"))]

    shutil.copytree(ROOT, target, ignore=ignore)


def test_every_marked_string_is_in_the_catalogues_and_nothing_stale(tmp_path):
    """Run makemessages on a copy of the project and compare with the committed files."""
    if not shutil.which("xgettext"):
        pytest.skip("GNU gettext's xgettext is not installed (apt-get install gettext)")
    copy = tmp_path / "project"
    _copy_project(copy)
    for domain in DOMAINS:
        subprocess.run(
            [sys.executable, "manage.py", "makemessages", "-l", "ja", "-d", domain,
             "--no-obsolete", "-i", "tests/*", "-i", "staticfiles/*"],
            cwd=copy, check=True, capture_output=True,
            env={"PATH": "/usr/bin:/bin", "DATABASE_URL": "sqlite:///unused.sqlite3",
                 "BLAZE_INMEMORY": "1"},
        )
        fresh_po = copy / "locale/ja/LC_MESSAGES" / f"{domain}.po"
        committed_po = ROOT / "locale/ja/LC_MESSAGES" / f"{domain}.po"
        fresh = _entries(polib.pofile(str(fresh_po))) if fresh_po.exists() else {}
        committed = _entries(polib.pofile(str(committed_po))) if committed_po.exists() else {}
        missing = sorted(k[1] for k in fresh.keys() - committed.keys())
        stale = sorted(k[1] for k in committed.keys() - fresh.keys())
        assert not missing, f"{domain}: marked but not in the catalogue (make messages): {missing}"
        assert not stale, f"{domain}: in the catalogue but no longer marked: {stale}"
