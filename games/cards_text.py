"""Cards in words, for pages and the game log (translated; the codes stay "R5", "YF")."""

from django.utils.translation import get_language, pgettext
from django.utils.translation import gettext as _

SUIT_SYMBOLS = {"R": "▲", "Y": "●", "B": "◆"}

# Every move's log line names its cards for each reader: four lookups in the catalogue a
# card. The words of a card depend only on the language, so they are kept per language.
_NAMES: dict[tuple[str | None, str], str] = {}


def suit_name(suit: str) -> str:
    return {"R": pgettext("suit", "red"), "Y": pgettext("suit", "yellow"),
            "B": pgettext("suit", "blue")}[suit]


def _card_name(card: str) -> str:
    if card[1] == "F":
        return _("%(suit)s Firebird") % {"suit": suit_name(card[0])}
    return _("%(suit)s %(rank)s") % {"suit": suit_name(card[0]), "rank": card[1]}


def card_name(card: str) -> str:
    """ "red 5", "yellow Firebird". """
    key = (get_language(), card)
    name = _NAMES.get(key)
    if name is None:
        name = _NAMES[key] = _card_name(card)
    return name


def cards_list(cards: list[str]) -> str:
    """ "red 5", "red 5 and blue 5", "red 5, blue 5 and yellow 5". """
    names = [card_name(c) for c in cards]
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
