"""Cards in words, for pages and the game log (translated; the codes stay "R5", "YF")."""

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

SUIT_SYMBOLS = {"R": "▲", "Y": "●", "B": "◆"}


def suit_name(suit: str) -> str:
    return {"R": pgettext("suit", "red"), "Y": pgettext("suit", "yellow"),
            "B": pgettext("suit", "blue")}[suit]


def card_name(card: str) -> str:
    """ "red 5", "yellow Firebird". """
    if card[1] == "F":
        return _("%(suit)s Firebird") % {"suit": suit_name(card[0])}
    return _("%(suit)s %(rank)s") % {"suit": suit_name(card[0]), "rank": card[1]}


def cards_list(cards: list[str]) -> str:
    """ "red 5", "red 5 and blue 5", "red 5, blue 5 and yellow 5". """
    names = [card_name(c) for c in cards]
    if len(names) < 2:
        return "".join(names)
    return _("%(first)s and %(last)s") % {"first": ", ".join(names[:-1]), "last": names[-1]}
