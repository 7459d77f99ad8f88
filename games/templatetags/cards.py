"""{% card "R5" %}: a card face drawn in HTML/CSS, the same markup static/js/table/cards.js
builds (rank in the corners, the suit's symbol in its colour, the Firebird's own art)."""

from django import template

from games.cards_text import SUIT_SYMBOLS, card_name
from games.words import REJECT_RULE

register = template.Library()


@register.inclusion_tag("games/_card.html")
def card(code: str, trump: bool = False, small: bool = False):
    return {
        "code": code, "suit": code[0], "rank": code[1], "firebird": code[1] == "F",
        "symbol": SUIT_SYMBOLS[code[0]], "name": card_name(code), "trump": trump,
        "small": small,
    }


@register.simple_tag
def reject_rule() -> str:
    """{% reject_rule %}: the one wording of the rejection rule (games.words)."""
    return str(REJECT_RULE)
