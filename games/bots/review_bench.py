"""How long the post-game review takes (docs/bots.md, "Review"): a game of random legal
moves (long games come quickly), every seat reviewed as if people had played it, with
the site's default budget.

    python3 -m games.bots.review_bench [--players 4] [--moves 150] [--seed 1]
        [--iterations 1000] [--game-iterations 150000]

Plays deals from `seed` until one lasts at least `--moves` moves, then reviews its first
`--moves` moves as games.reviews does: every play decision (bets are not reviewed) with
min(iterations, max(100, game_iterations // decisions)) playouts of the strong bot's
search, from the mover's view only. Prints the wall and CPU seconds of the whole review.
"""

import argparse
import random
import time

from games.engine import deal_game, random_move, state_from_deal, view

from .review import move_key, review_move


def long_game(players: int, moves: int, seed: int):
    rng = random.Random(seed)
    while True:
        deal = deal_game(players, rng)
        state, log = state_from_deal(deal), []
        while not state.finished and len(log) < moves:
            move = random_move(state, rng)
            state.apply(move)
            log.append(move)
        if len(log) >= moves:
            return deal, log


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--moves", type=int, default=150)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--iterations", type=int, default=1000)
    parser.add_argument("--game-iterations", type=int, default=150_000)
    args = parser.parse_args(argv)
    deal, log = long_game(args.players, args.moves, args.seed)
    decisions = sum(1 for m in log if m["move"] != "bet")
    per = max(100, min(args.iterations, args.game_iterations // max(decisions, 1)))
    rng = random.Random(args.seed)
    state = state_from_deal(deal)
    differ = 0
    wall, cpu = time.perf_counter(), time.process_time()
    for move in log:
        if move["move"] != "bet":
            seat = move["seat"]
            best, chances = review_move(view(state, seat), seat, move, rng=rng, iterations=per)
            differ += bool(chances) and move_key(best) != move_key(move)
        state.apply(move)
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    print(f"{args.players} players, {len(log)} moves, {decisions} decisions reviewed at "
          f"{per} iterations: {wall:.1f} s wall, {cpu:.1f} s CPU "
          f"({1000 * cpu / max(decisions, 1):.0f} ms CPU a decision); "
          f"the bot would have played otherwise at {differ}")


if __name__ == "__main__":
    main()
