"""The strong bot's search: paired Monte-Carlo rollouts over determinizations.

Each iteration deals the hidden cards anew (a determinization of the bot's view) and
plays every candidate move (`ismcts.candidates`) on that same deal, each followed by
the basic policy for every seat to the end of the round; the move with the best mean
reward wins. Judging all candidates on the same deals ("common random numbers") makes
their differences far less noisy than independent samples, and playing on with the
basic policy is one step of policy improvement over the basic bot (Bertsekas's rollout
algorithm; Tesauro & Galperin 1996 for backgammon).
"""

import time
from time import process_time

from games.engine.fast import OVER, decode_move

from .fastbasic import fast_basic_move
from .ismcts import candidates, evaluate

#: a rollout stops here if the round has not ended (the rules allow endless rounds)
MAX_ROLLOUT = 400
#: with a time budget, stop after this many deals: the arena found no gain from 50 to 200
#: deals (docs/bots.md), and a bot that stops early leaves the worker to others
MAX_DEALS = 200


def rollout_search(sampler, seat: int, rng, iterations=None, budget_ms=None,
                   stats=None) -> dict:
    """The candidate with the best mean reward after `iterations` deals (MAX_DEALS by
    default) or `budget_ms`, whichever comes first.
    `stats` counts playouts (one per candidate and deal) as iterations, and the deals."""
    # stop early enough for the view, the sampler, the answer and a busy machine's
    # scheduling (at 97% of the budget the p95 reached 1,020 ms of 1,000 on a loaded host)
    deadline = (None if budget_ms is None
                else time.perf_counter() + 0.9 * budget_ms / 1000.0 - 0.010)
    if iterations is None:
        iterations = MAX_DEALS
    started, cpu_started = time.perf_counter(), process_time()
    f = sampler.sample_fast(rng)
    moves = candidates(f, seat)
    if len(moves) == 1:
        return decode_move(moves[0])
    totals = [0.0] * len(moves)
    deals = playouts = 0
    while True:
        if iterations is not None and deals >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        base = sampler.sample_fast(rng)
        rewards = []
        for m in moves:
            if deadline is not None and rewards and time.perf_counter() >= deadline:
                break  # a deal judged for only some candidates would not be a fair pair
            g = base.clone()
            g.apply(m)
            depth = 0
            while g.stage != OVER and depth < MAX_ROLLOUT:
                g.apply(fast_basic_move(g, g.mover()))
                depth += 1
            rewards.append(evaluate(g)[seat])
        if len(rewards) < len(moves):
            break
        for j, r in enumerate(rewards):
            totals[j] += r
        deals += 1
        playouts += len(moves)
    if stats is not None:
        stats["iterations"] = stats.get("iterations", 0) + playouts
        stats["deals"] = stats.get("deals", 0) + deals
        stats["search_seconds"] = stats.get("search_seconds", 0.0) + time.perf_counter() - started
        stats["search_cpu_seconds"] = (stats.get("search_cpu_seconds", 0.0)
                                       + process_time() - cpu_started)
    best = max(range(len(moves)), key=lambda j: (totals[j], -j))
    return decode_move(moves[best])
