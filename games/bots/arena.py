"""Play bots against each other on shared deals and report the tested bot's results.

    python -m games.bots.arena --players 4 --games 100 --bot strong --vs basic \
        [--budget-ms 1000 | --iterations K] [--seed S]

Every deal is played once with the tested bot in each seat (the other seats run
`--vs`), so `--games` is rounded up to a multiple of the player count. Games
longer than `--max-moves` moves are stopped and counted as unfinished (they
count as neither a win nor a ranked game). A win is ranking[0] being the tested
bot's seat.
"""

import argparse
import random
import statistics
import sys
import time
from math import sqrt

from games.engine import deal_game, state_from_deal, view

from . import LEVELS, choose_move, strong_v1
from .basic import basic_move
from .determinize import Sampler

#: the site's levels and, as a yardstick, the first strong bot (games/bots/strong_v1.py)
ARENA_LEVELS = (*LEVELS, "strong-v1")


def arena_move(view: dict, seat: int, rng, level: str, budget_ms=None, iterations=None,
               stats=None) -> dict:
    """`choose_move`, or the first strong bot for level "strong-v1"."""
    if level != "strong-v1":
        return choose_move(view, seat, rng, level, budget_ms=budget_ms, iterations=iterations,
                           stats=stats)
    sampler = Sampler(view, seat)
    if view["stage"] == "bet":
        return basic_move(sampler.sample(rng), seat, rng)
    if budget_ms is None and iterations is None:
        budget_ms = 1000
    return strong_v1.search(sampler, seat, rng, iterations=iterations, budget_ms=budget_ms,
                            stats=stats)


def wilson(k: int, n: int, z: float = 1.96) -> tuple:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return (centre - half, centre + half)


def mean_ci(values: list) -> tuple:
    if not values:
        return (0.0, 0.0)
    m = statistics.fmean(values)
    if len(values) < 2:
        return (m, 0.0)
    return (m, 1.96 * statistics.stdev(values) / sqrt(len(values)))


def play_game(deal: dict, levels: list, seed, tested: int, budget_ms=None, iterations=None,
              max_moves: int = 3000, times=None, stats=None, vs_iterations=None) -> dict:
    """Play one game; think times of seat `tested` go to `times`, search stats to `stats`."""
    state = state_from_deal(deal)
    rngs = [random.Random(f"{seed}-{s}") for s in range(len(levels))]
    moves = 0
    while not state.finished and moves < max_moves:
        seat = state.waiting_on[0]
        v = view(state, seat)
        started = time.perf_counter()
        its = iterations if seat == tested or vs_iterations is None else vs_iterations
        move = arena_move(v, seat, rngs[seat], levels[seat], budget_ms=budget_ms,
                          iterations=its, stats=stats if seat == tested else None)
        if seat == tested and times is not None:
            times.append(time.perf_counter() - started)
        state.apply(move)
        moves += 1
    return {"finished": state.finished, "ranking": state.ranking, "scores": state.scores,
            "moves": moves}


def run(players: int, games: int, bot: str, vs: str, budget_ms=None, iterations=None,
        seed: int = 1, max_moves: int = 3000, progress=None, vs_iterations=None) -> dict:
    """Play the arena and return its figures (see `report`)."""
    deals = -(-games // players)
    total = deals * players
    wins, ranks, scores, unfinished = 0, [], [], 0
    times: list = []
    stats: dict = {}
    played = 0
    for d in range(deals):
        deal = deal_game(players, random.Random(f"deal-{seed}-{d}"))
        for tested in range(players):
            levels = [vs] * players
            levels[tested] = bot
            result = play_game(deal, levels, f"{seed}-{d}-{tested}", tested, budget_ms,
                               iterations, max_moves, times, stats, vs_iterations)
            if result["finished"]:
                place = result["ranking"].index(tested)
                wins += place == 0
                ranks.append(place + 1)
                scores.append(result["scores"][tested])
            else:
                unfinished += 1
            played += 1
            if progress:
                progress(played, total)
    ranked = len(ranks)
    times_sorted = sorted(times)
    return {
        "players": players, "bot": bot, "vs": vs, "games": total, "ranked": ranked,
        "unfinished": unfinished, "wins": wins,
        "win_rate": wins / ranked if ranked else 0.0, "win_ci": wilson(wins, ranked),
        "mean_rank": mean_ci(ranks), "mean_score": mean_ci(scores),
        "decisions": len(times),
        "think_median_ms": 1000 * statistics.median(times_sorted) if times else 0.0,
        "think_p95_ms": 1000 * times_sorted[int(0.95 * (len(times) - 1))] if times else 0.0,
        "think_max_ms": 1000 * times_sorted[-1] if times else 0.0,
        "iterations": stats.get("iterations", 0),
        "deals": stats.get("deals", 0),
        "iterations_per_s": (stats["iterations"] / stats["search_seconds"]
                             if stats.get("search_seconds") else 0.0),
        # per second of CPU: the figure that does not depend on what else the machine runs
        "iterations_per_cpu_s": (stats["iterations"] / stats["search_cpu_seconds"]
                                 if stats.get("search_cpu_seconds") else 0.0),
    }


def report(r: dict) -> str:
    lo, hi = r["win_ci"]
    rank, rank_h = r["mean_rank"]
    score, score_h = r["mean_score"]
    lines = [
        f"{r['bot']} vs {r['players'] - 1}x {r['vs']}, {r['players']} players: "
        f"{r['games']} games, {r['ranked']} finished, {r['unfinished']} unfinished",
        f"win rate: {100 * r['win_rate']:.1f}% (95% CI {100 * lo:.1f}-{100 * hi:.1f}%), "
        f"chance {100 / r['players']:.1f}%",
        f"mean rank: {rank:.2f} +- {rank_h:.2f}",
        f"mean score: {score:.2f} +- {score_h:.2f}",
        f"think time per decision: median {r['think_median_ms']:.1f} ms, "
        f"p95 {r['think_p95_ms']:.1f} ms, max {r['think_max_ms']:.1f} ms "
        f"({r['decisions']} decisions)",
    ]
    if r["iterations"]:
        deals = f" in {r['deals']} deals" if r["deals"] else ""
        lines.append(f"search: {r['iterations']} iterations{deals}, "
                     f"{r['iterations_per_s']:.0f} iterations/s "
                     f"({r['iterations_per_cpu_s']:.0f} per CPU second)")
    return "\n".join(lines)


def _progress_bar(done: int, total: int) -> None:
    width = 40
    filled = width * done // total
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{total}")
    if done == total:
        sys.stderr.write("\n")
    sys.stderr.flush()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m games.bots.arena",
                                     description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=4, choices=(3, 4, 5))
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--bot", default="strong", choices=ARENA_LEVELS)
    parser.add_argument("--vs", default="basic", choices=ARENA_LEVELS)
    group = parser.add_mutually_exclusive_group()
    group.add_argument("--budget-ms", type=float)
    group.add_argument("--iterations", type=int)
    parser.add_argument("--vs-iterations", type=int,
                        help="iterations of the --vs bots (default: --iterations)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--max-moves", type=int, default=3000)
    parser.add_argument("--quiet", action="store_true", help="no progress bar")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    result = run(args.players, args.games, args.bot, args.vs, args.budget_ms, args.iterations,
                 args.seed, args.max_moves, None if args.quiet else _progress_bar,
                 args.vs_iterations)
    print(report(result))
    print(f"wall time: {time.perf_counter() - started:.1f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
