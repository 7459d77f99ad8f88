"""The phrasebook: short things said at a table, each read in its reader's language."""

import re
import unicodedata

from django.conf import settings
from django.utils import translation
from django.utils.translation import gettext_lazy as _

PHRASES = {
    "hello": _("Hello!"),
    "good_luck": _("Good luck!"),
    "well_played": _("Well played!"),
    "thanks": _("Thanks!"),
    "oops": _("Oops!"),
    "one_moment": _("One moment, please."),
    "sorry": _("Sorry!"),
    "good_game": _("Good game!"),
    "rematch": _("Rematch?"),
    "bye": _("Bye!"),
}

LANGUAGES = [code for code, _name in settings.LANGUAGES]
MAX_TEXT = 280

# Bidi embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069) could turn the
# text around the message; the other format and control characters can hide or break it.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069]")


def phrase_in(key: str, language: str) -> str:
    with translation.override(language):
        return str(PHRASES[key])


def phrases_in(language: str) -> list[dict]:
    with translation.override(language):
        return [{"key": key, "text": str(text)} for key, text in PHRASES.items()]


def text_clean(text: str) -> str:
    """Talk as plain text: control characters become spaces, bidi overrides and lone
    surrogates go, runs of spaces shrink to one; nothing is interpreted (no markup, no
    links)."""
    text = _BIDI.sub("", text)
    # control characters (NUL too) read as spaces; lone surrogates (JSON's "\ud800", which
    # no database stores) go
    text = "".join(" " if unicodedata.category(c) == "Cc" else c for c in text
                   if unicodedata.category(c) != "Cs")
    return re.sub(r"\s+", " ", text).strip()
