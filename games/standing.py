"""Where each seat finishes: the game's ranking, except that seats whose players left the
game (resigned, or timed out three times in a row) rank last. Plain Python, no Django.

This is the one rule for results: the table page, ratings and tournament points all read it.
"""

from collections.abc import Collection, Sequence


def standing_order(ranking: Sequence[int], abandoned: Collection[int] = ()) -> list[int]:
    """Seats best first: those who stayed in the game's order, then those who left."""
    return [s for s in ranking if s not in abandoned] + [s for s in ranking if s in abandoned]


def standing_places(ranking: Sequence[int], abandoned: Collection[int] = ()) -> list[tuple]:
    """(seat, place) pairs best first, place 1 for the winner. Seats that left share the
    last place: their order among themselves says nothing."""
    stayed = [s for s in ranking if s not in abandoned]
    left = [s for s in ranking if s in abandoned]
    return [(s, k + 1) for k, s in enumerate(stayed)] + [(s, len(stayed) + 1) for s in left]
