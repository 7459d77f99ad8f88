"""Tournament points and standings from table results. No Django here.

A table result is the table's players in final placement order (the game's ranking, best
first) with each player's game score. Points per placement come from a scheme keyed by the
table size; by default the last place scores 0 and each place above one more
(3: 2/1/0, 4: 3/2/1/0, 5: 4/3/2/1/0).

Standings rank by points, then total game score, then opponents' points (the sum, over
every table a player sat at, of the tournament points of the others at that table), then
seed (registration order).
"""

from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field

DEFAULT_POINTS = {"3": [2, 1, 0], "4": [3, 2, 1, 0], "5": [4, 3, 2, 1, 0]}


def clean_points_scheme(scheme: Mapping | None) -> dict[str, list[int]]:
    """A complete scheme: sizes missing from `scheme` take the default. Raises ValueError
    for a list of the wrong length or that is not whole numbers >= 0, best place first."""
    clean = {k: list(v) for k, v in DEFAULT_POINTS.items()}
    for size, values in (scheme or {}).items():
        if str(size) not in DEFAULT_POINTS:
            raise ValueError(f"points are given for tables of 3, 4 or 5, not {size!r}")
        if (
            not isinstance(values, (list, tuple))
            or len(values) != int(size)
            or any(type(v) is not int or v < 0 for v in values)
        ):
            raise ValueError(f"a table of {size} needs {size} whole numbers of points, >= 0")
        if list(values) != sorted(values, reverse=True):
            raise ValueError(f"points for a table of {size} must not rise with a worse place")
        clean[str(size)] = list(values)
    return clean


def placement_points(size: int, place: int, scheme: Mapping | None = None) -> int:
    """Points for `place` (0 = first) at a table of `size`."""
    return clean_points_scheme(scheme)[str(size)][place]


@dataclass(frozen=True)
class TableResult:
    """One finished table: players best first, and their game scores in the same order.
    `left` are the players who left the game (resigned, or timed out three times in a
    row): they come last in `players` and all take the last place's points."""

    players: Sequence[Hashable]
    scores: Sequence[int]
    left: frozenset = frozenset()

    def place(self, index: int) -> int:
        """The place (0 = first) of `players[index]`: the last one for those who left."""
        return len(self.players) - 1 if self.players[index] in self.left else index


@dataclass
class Standing:
    player: Hashable
    seed: int
    points: int = 0
    score: int = 0
    opponents_points: int = 0
    played: int = 0
    placements: list[int] = field(default_factory=list)
    rank: int = 0

    @property
    def sort_key(self) -> tuple:
        return (-self.points, -self.score, -self.opponents_points, self.seed)


def standings(
    players: Sequence[Hashable],
    results: Sequence[TableResult],
    scheme: Mapping | None = None,
) -> list[Standing]:
    """Every player of `players` (in seed order) ranked on the finished `results`.

    Players without results are listed with zero. Ranks are 1, 2, ... with no shared rank:
    the seed settles what the tie-breaks leave equal.
    """
    table = clean_points_scheme(scheme)
    rows = {p: Standing(player=p, seed=i) for i, p in enumerate(players)}
    for result in results:
        values = table[str(len(result.players))]
        for index, (p, score) in enumerate(zip(result.players, result.scores)):
            place = result.place(index)
            row = rows.setdefault(p, Standing(player=p, seed=len(rows)))
            row.points += values[place]
            row.score += score
            row.played += 1
            row.placements.append(place + 1)
    for result in results:
        for p in result.players:
            rows[p].opponents_points += sum(rows[o].points for o in result.players if o != p)
    ranked = sorted(rows.values(), key=lambda r: r.sort_key)
    for i, row in enumerate(ranked, start=1):
        row.rank = i
    return ranked
