"""Cards of Blaze as two-character strings (suit then rank), with value tables.

Strings are the record's own vocabulary, so no conversion is needed between the
engine, the database and exported records; the tables make lookups cheap.
"""

SUITS = ("R", "Y", "B")
RANKS = ("1", "2", "3", "4", "5", "6", "7", "8", "9", "F")

CARDS = tuple(s + r for s in SUITS for r in RANKS)
CARD_SET = frozenset(CARDS)

SUIT = {c: c[0] for c in CARDS}
RANK = {c: c[1] for c in CARDS}
#: value of a card played as a challenge card (a Firebird counts 10)
CHALLENGE_VALUE = {c: 10 if c[1] == "F" else int(c[1]) for c in CARDS}
#: value of a card played as a rejection card (a Firebird counts 0)
REJECT_VALUE = {c: 0 if c[1] == "F" else int(c[1]) for c in CARDS}

#: feather values per round, top of stack first, by player count
FEATHERS = {
    3: ((2, 1), (3, 2)),
    4: ((3, 2, 1), (4, 3, 2)),
    5: ((4, 3, 2, 1), (5, 4, 3, 2)),
}

HAND_SIZE = 5
MAX_LIMIT = 5


def is_card(value) -> bool:
    return type(value) is str and value in CARD_SET


def full_deck(players: int) -> list[str]:
    """The game's 60 cards, or 54 without rank 1 for three players."""
    return [c for c in CARDS if not (players == 3 and c[1] == "1") for _ in (0, 1)]


def deck_sizes(players: int) -> tuple[int, int]:
    rest = len(full_deck(players)) - HAND_SIZE * players
    return rest // 2, rest - rest // 2


def can_reject(challenge: str, rejection: str, trump: str) -> bool:
    """Whether `rejection` may be placed on `challenge` (RULES.md §5.4)."""
    if SUIT[challenge] == trump:
        return SUIT[rejection] == trump and REJECT_VALUE[rejection] >= CHALLENGE_VALUE[challenge]
    if SUIT[rejection] == trump:
        return True
    return SUIT[rejection] == SUIT[challenge] and (
        REJECT_VALUE[rejection] >= CHALLENGE_VALUE[challenge]
    )


#: REJECTERS[trump][challenge]: the cards that may be placed on `challenge`
REJECTERS = {
    t: {c: frozenset(r for r in CARDS if can_reject(c, r, t)) for c in CARDS} for t in SUITS
}
