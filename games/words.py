"""What the site says about games in the active language: the engine's English
sentences (games/engine/words.py marks their templates; the engine has no Django) and
the names of a game's states."""

from django.utils.translation import gettext, gettext_lazy

from .engine.words import translate

# The rejection rule (RULES.md §5.4: equal values reject) in one sentence, said the same
# on the home page, in the table's tips and on the rules page.
REJECT_RULE = gettext_lazy(
    "Reject each attacking card with a card of its suit that is the same or higher, or "
    "with any trump; a trump only with a trump that is the same or higher.")

STATUS_WORDS = {
    "waiting": gettext_lazy("waiting for players"),
    "playing": gettext_lazy("playing"),
    "finished": gettext_lazy("finished"),
    "aborted": gettext_lazy("aborted"),
}


def say(text) -> str:
    """An engine Sentence or Phrase in the active language; other text unchanged."""
    return translate(text, gettext)


def status_word(status: str) -> str:
    return str(STATUS_WORDS.get(status, status))
