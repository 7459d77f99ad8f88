"""The game's terms are translated as docs/glossary.md names them, everywhere."""

import re
from pathlib import Path

import polib
import pytest

ROOT = Path(__file__).resolve().parents[2]
GLOSSARY = (ROOT / "docs" / "glossary.md").read_text()

# English term (as a regex over the msgid) -> what its translation must contain.
TERMS = [
    (r"\bFirebirds?\b", "火の鳥", "Pájaro de Fuego"),
    (r"\bfeathers?\b", "羽根", "pluma"),
    (r"\btrumps?\b", "切り札", "triunfo"),
    (r"\bdeck\b", "山札", "mazo"),
    (r"\bdiscard pile\b", "捨て札", "descartes"),
    (r"\bchalleng(e|es|ed|ing)\b", "チャレンジ", "desaf"),
    (r"\breject(s|ed|ing)?\b", "はね返", "rechaz"),
    (r"\bbet(s|ting)?\b", "賭", "apuest|apost"),
    (r"\brounds?\b(?! in circles)", "ラウンド", "ronda"),
    (r"\bphases?\b", "フェイズ", "fase"),
    (r"\bsupporters?\b", "サポーター", "aliad"),
    (r"\battackers\b", "攻め手", "atacantes"),
]


def _entries(lang: str, domain: str):
    path = ROOT / "locale" / lang / "LC_MESSAGES" / f"{domain}.po"
    if not path.exists():
        return []
    return [e for e in polib.pofile(str(path)) if not e.obsolete]


def _texts(entry) -> list[str]:
    return [entry.msgstr] if entry.msgstr else list(entry.msgstr_plural.values())


@pytest.mark.parametrize("term,ja,es", TERMS, ids=[t[0] for t in TERMS])
def test_the_glossary_names_each_term(term, ja, es):
    rows = [line for line in GLOSSARY.splitlines() if line.startswith("|")]
    assert any(ja in row and re.search(es.split("|")[0], row) for row in rows), (
        f"docs/glossary.md has no row with {ja} and {es}")


@pytest.mark.parametrize("lang", ["ja", "es"])
def test_every_translation_uses_the_glossarys_words(lang):
    wrong = []
    for domain in ("django", "djangojs"):
        for entry in _entries(lang, domain):
            english = re.sub(r"'[^']*'|\"[^\"]*\"", "", entry.msgid)  # JSON field names
            for term, ja, es in TERMS:
                if not re.search(term, english):
                    continue
                want = ja if lang == "ja" else es
                for text in _texts(entry):
                    if text and not re.search(want, text, re.IGNORECASE):
                        wrong.append(f"{entry.msgid!r} -> {text!r} (wants {want})")
    assert not wrong, "\n".join(wrong)
