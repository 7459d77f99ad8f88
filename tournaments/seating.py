"""Who sits at which table: Swiss groups and elimination fields. No Django here.

Players are opaque hashable keys (user ids in practice), always passed in standing order,
best first, so these functions only decide the grouping.
"""

from collections.abc import Hashable, Iterable, Sequence

MIN_TABLE, MAX_TABLE = 3, 5


def table_sizes(n: int, preferred: int = 4) -> list[int]:
    """Split `n` players into tables of 3-5, largest first.

    The partition has the most tables of the `preferred` size; among those, the least total
    distance from that size; then the fewest tables (so 5s before 3s). With tables of 4:
    n = 4q -> all 4s; 4q+1 -> one 5; 4q+2 -> two 3s; 4q+3 -> one 3
    (e.g. 5 -> [5], 6 -> [3, 3], 7 -> [4, 3], 9 -> [5, 4], 10 -> [4, 3, 3]).
    """
    if type(n) is not int or n < MIN_TABLE:
        raise ValueError(f"a table needs at least {MIN_TABLE} players, not {n!r}")
    if preferred not in (3, 4, 5):
        raise ValueError(f"tables seat 3 to 5 players, not {preferred!r}")
    best_key, best = None, None
    for fives in range(n // 5 + 1):
        for fours in range((n - 5 * fives) // 4 + 1):
            rest = n - 5 * fives - 4 * fours
            if rest % 3:
                continue
            sizes = [5] * fives + [4] * fours + [3] * (rest // 3)
            key = (
                -sizes.count(preferred),
                sum(abs(s - preferred) for s in sizes),
                len(sizes),
            )
            if best_key is None or key < best_key:
                best_key, best = key, sizes
    assert best is not None  # every n >= 3 is a sum of 3s, 4s and 5s
    return best


def _pair(a: Hashable, b: Hashable) -> frozenset:
    return frozenset((a, b))


def repeat_count(tables: Iterable[Sequence[Hashable]], met: set[frozenset]) -> int:
    """How many pairs seated together at these tables have already met."""
    total = 0
    for table in tables:
        for i, a in enumerate(table):
            for b in table[i + 1 :]:
                total += _pair(a, b) in met
    return total


def _clashes(player: Hashable, others: Iterable[Hashable], met: set[frozenset]) -> int:
    return sum(_pair(player, o) in met for o in others if o != player)


def swiss_tables(
    ranked: Sequence[Hashable], met: set[frozenset] | None = None, preferred: int = 4
) -> list[list[Hashable]]:
    """Seat `ranked` (best first) at tables of similar standing, avoiding repeat opponents.

    `met` holds frozenset pairs of players who have already shared a table. Tables are
    filled top-down in standing order, each seat going to the first player among this
    table's and the next table's candidates who has met no one seated so far; then players
    are swapped between adjacent tables while a swap lowers the number of repeated pairs.
    """
    met = met or set()
    sizes = table_sizes(len(ranked), preferred)
    pool = list(ranked)
    tables: list[list[Hashable]] = []
    for k, size in enumerate(sizes):
        window = size + (sizes[k + 1] if k + 1 < len(sizes) else 0)
        table: list[Hashable] = []
        for _ in range(size):
            candidates = pool[: max(1, window - len(table))]
            pick = next((p for p in candidates if not _clashes(p, table, met)), candidates[0])
            pool.remove(pick)
            table.append(pick)
        tables.append(table)
    if met:
        _improve_by_swaps(tables, met)
    # Within a table, keep standing order: the page lists them that way.
    order = {p: i for i, p in enumerate(ranked)}
    return [sorted(t, key=order.__getitem__) for t in tables]


def _improve_by_swaps(tables: list[list[Hashable]], met: set[frozenset]) -> None:
    """Greedy: apply the best repeat-lowering swap between adjacent tables until none is."""
    while True:
        best_gain, best_swap = 0, None
        for k in range(len(tables) - 1):
            upper, lower = tables[k], tables[k + 1]
            for i, a in enumerate(upper):
                for j, b in enumerate(lower):
                    before = _clashes(a, upper, met) + _clashes(b, lower, met)
                    after = (
                        _clashes(b, [p for p in upper if p != a], met)
                        + _clashes(a, [p for p in lower if p != b], met)
                    )
                    if before - after > best_gain:
                        best_gain, best_swap = before - after, (k, i, j)
        if best_swap is None:
            return
        k, i, j = best_swap
        tables[k][i], tables[k + 1][j] = tables[k + 1][j], tables[k][i]


def elimination_advance(sizes: Sequence[int], advance_per_table: int) -> int:
    """How many of each table go on, so that the field shrinks and stays >= 3.

    At most one fewer than the smallest table (someone leaves every table), at least one,
    and enough that the next field can fill a table of three.
    """
    if len(sizes) <= 1:
        return 0  # a final table: nobody goes on
    k = max(1, min(advance_per_table, min(sizes) - 1))
    while k * len(sizes) < MIN_TABLE:
        k += 1
    return k


def elimination_field_sizes(n: int, preferred: int = 4, advance_per_table: int = 2) -> list[int]:
    """The field at each round, ending with the final table of 3-5 players."""
    fields = [n]
    while n > MAX_TABLE:
        sizes = table_sizes(n, preferred)
        n = elimination_advance(sizes, advance_per_table) * len(sizes)
        fields.append(n)
    return fields


def elimination_tables(ranked: Sequence[Hashable], preferred: int = 4) -> list[list[Hashable]]:
    """Seat `ranked` (best first) in serpentine order so the strongest are spread out:
    table 1 gets seeds 1, 2k, 2k+1, ...; table k gets seeds k, k+1, .... A field of 3-5 is
    one final table."""
    sizes = table_sizes(len(ranked), preferred)
    tables: list[list[Hashable]] = [[] for _ in sizes]
    k, step = 0, 1
    for player in ranked:
        while len(tables[k]) == sizes[k]:
            k, step = _next_snake(k, step, len(sizes))
        tables[k].append(player)
        k, step = _next_snake(k, step, len(sizes))
    return tables


def _next_snake(k: int, step: int, count: int) -> tuple[int, int]:
    if count == 1:
        return 0, step
    nxt = k + step
    if 0 <= nxt < count:
        return nxt, step
    return k, -step  # turn: the end table takes two in a row


def met_pairs(tables: Iterable[Sequence[Hashable]]) -> set[frozenset]:
    """Every pair of players who shared one of these tables."""
    return {_pair(a, b) for t in tables for i, a in enumerate(t) for b in t[i + 1 :]}
