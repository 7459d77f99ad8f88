"""Each seat's chance of winning the game once round 1 is over.

Round 2 is dealt afresh from all the cards, so what carries over from round 1 is only
the scores and who starts round 2 (round 1's loser). `win_chances` combines the scores
with a table of round-2 outcomes of four basic bots (`ROUND2`: feathers plus bet results
per seat, counted from the starting seat, and the feather that breaks ties), played once
by `python -m games.bots.outlook` and stored in `outlook_table.py`: the exact chance of
ranking first under that model, instead of a guess from the score difference.
"""

import random
from collections import Counter

_cache: dict = {}


def win_chances(scores: list, starter: int) -> list:
    """Chance of ranking first for each seat, after round 1 ended with `scores` and
    round 2 starts with `starter` (round 1's loser)."""
    n = len(scores)
    low = min(scores)
    key = tuple(scores[(starter + i) % n] - low for i in range(n))
    rel = _cache.get(key)
    if rel is None:
        rel = _cache[key] = _relative_chances(key)
    return [rel[(s - starter) % n] for s in range(n)]


def _relative_chances(base: tuple) -> list:
    from .outlook_table import ROUND2

    n = len(base)
    outcomes, total = ROUND2[n]
    wins = [0] * n
    for count, gains, last in outcomes:
        best, best_key = -1, None
        for s in range(n):
            k = (base[s] + gains[s], last[s])
            if best_key is None or k > best_key:
                best, best_key = s, k
        wins[best] += count
    return [w / total for w in wins]


def play_round2(n: int, rng) -> tuple:
    """One round 2 of basic bots from a random deal, started by seat 0: (gains, last)."""
    from games.engine.deal import deal_game
    from games.engine.fast import OVER, fast_game

    from .fastbasic import fast_basic_move

    deal = deal_game(n, rng)
    second = deal["rounds"][1]
    f = fast_game({"rounds": [second, second], "start": 0})
    f.next_deal = None
    f.begin_round(f.hands, f.deck, 0)  # round 2 (round 1 is never played)
    moves = 0
    while f.stage != OVER and moves < 3000:
        f.apply(fast_basic_move(f, f.mover()))
        moves += 1
    if f.stage != OVER:
        return None
    return tuple(f.scores()), tuple(f.last)


def build(rounds: int = 20000, seed: int = 1) -> dict:
    table = {}
    for n in (3, 4, 5):
        rng = random.Random(f"outlook-{seed}-{n}")
        counts: Counter = Counter()
        for _ in range(rounds):
            out = play_round2(n, rng)
            if out is not None:
                counts[out] += 1
        outcomes = sorted((c, g, la) for (g, la), c in counts.items())
        table[n] = (tuple(outcomes), sum(counts.values()))
    return table


def main() -> None:
    import pathlib
    table = build()
    path = pathlib.Path(__file__).with_name("outlook_table.py")
    lines = ['"""Round-2 outcomes of basic bots: written by `python -m games.bots.outlook`."""',
             "", "# n: (((count, gains from the starter on, round-2 feathers), ...), total)",
             "ROUND2 = {"]
    for n, (outcomes, total) in table.items():
        lines.append(f"    {n}: ((")
        for o in outcomes:
            lines.append(f"        {o!r},")
        lines.append(f"    ), {total}),")
    lines.append("}")
    path.write_text("\n".join(lines) + "\n")


if __name__ == "__main__":
    main()
