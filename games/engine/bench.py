"""Engine throughput: `python -m games.engine.bench [--seconds S]`.

For 3, 4 and 5 players: random complete games per second, moves per second of
random play, and replay throughput (moves per second) of recorded games.
Random play is capped at MAX_MOVES moves: the rules allow endless games (§9).
"""

import argparse
import json
import random
import time

from .deal import new_game
from .legal import random_move
from .record import export_record, import_record, replay_line

MAX_MOVES = 3000


def random_game(players: int, rng):
    """A game of random play to its end or MAX_MOVES; (its state, moves made)."""
    state = new_game(players, rng)
    moves = 0
    while not state.finished and moves < MAX_MOVES:
        state.apply(random_move(state, rng))
        moves += 1
    return state, moves


def random_games(players: int, seconds: float, rng) -> dict:
    games = moves = capped = 0
    records = []
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state, k = random_game(players, rng)
        games += 1
        moves += k
        capped += not state.finished
        if len(records) < 200:
            records.append(export_record(state, [f"p{i}" for i in range(players)]))
    elapsed = time.perf_counter() - start
    return {"games_per_s": games / elapsed, "moves_per_s": moves / elapsed,
            "moves_per_game": moves / games, "capped": capped, "games": games,
            "records": records}


def replay_throughput(records: list, seconds: float, parse: bool = False,
                      clock=time.perf_counter) -> float:
    """Moves per second of `import_record`, or of `blaze_replay`'s whole line if `parse`,
    over about `seconds` of `clock` (wall time; bench.host gives a thread's CPU time)."""
    lines = [json.dumps(r) for r in records]
    parsed = [json.loads(line) for line in lines]
    moves = sum(len(rnd["moves"]) for r in parsed for rnd in r["rounds"])
    done = 0
    start = clock()
    while (spent := clock() - start) < seconds:
        if parse:
            for line in lines:
                replay_line(line)
        else:
            for record in parsed:
                import_record(record)
        done += moves
    return done / spent


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="per measurement")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    print(f"{'players':>7} {'games/s':>9} {'moves/s':>10} {'moves/game':>10} "
          f"{'replay moves/s':>15} {'+json moves/s':>14} {'capped':>9}")
    for players in (3, 4, 5):
        r = random_games(players, args.seconds, rng)
        replay = replay_throughput(r["records"], args.seconds)
        whole = replay_throughput(r["records"], args.seconds, parse=True)
        print(f"{players:>7} {r['games_per_s']:>9.0f} {r['moves_per_s']:>10.0f} "
              f"{r['moves_per_game']:>10.1f} {replay:>15.0f} {whole:>14.0f} "
              f"{r['capped']:>4}/{r['games']}")


if __name__ == "__main__":
    main()
