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

from games.engine.fast import OVER, PLACE, decode_move

from .fastbasic import fast_basic_move
from .ismcts import candidates, evaluate
from .outlook import win_chances

#: a rollout stops here if the round has not ended (the rules allow endless rounds)
MAX_ROLLOUT = 400
#: with a time budget, stop after this many deals: the arena found no gain from 50 to 200
#: deals (docs/bots.md), and a bot that stops early leaves the worker to others
MAX_DEALS = 200


def evaluate_win(f, seat: int) -> float:
    """`seat`'s reward in [0, 1] where a rollout stopped: at the end of the game as
    `ismcts.evaluate`; at the end of round 1 mostly its chance of winning the game
    (`outlook.win_chances`), plus a little of the score lead for hopeless positions;
    elsewhere (a rollout cut short) the heuristic of `ismcts.evaluate`."""
    if f.stage == OVER and f.losers == 1:
        p = win_chances(f.scores(), f.out.index(False))[seat]
        return 0.8 * p + 0.2 * evaluate(f)[seat]
    return evaluate(f)[seat]


def evaluate_heuristic(f, seat: int) -> float:
    """`ismcts.evaluate` for `seat`: the score lead at the end of round 1."""
    return evaluate(f)[seat]


#: how the rollout search scores the end of a rollout: `evaluate_heuristic` (as measured
#: in docs/bots.md) or `evaluate_win` (measured with BET = "win": no clear gain, docs/bots.md)
EVALUATE = evaluate_heuristic


def deadline_of(budget_ms) -> float | None:
    """When a search with `budget_ms` stops (perf_counter time; None: no budget): early
    enough for the view, the sampler, the answer and a busy machine's scheduling (at 97%
    of the budget the p95 reached 1,020 ms of 1,000 on a loaded host)."""
    return None if budget_ms is None else time.perf_counter() + 0.9 * budget_ms / 1000.0 - 0.010


def paired_totals(sampler, rng, moves: list, playout, iterations: int, deadline) -> tuple:
    """Every candidate in `moves` played on each of up to `iterations` deals until the
    `deadline` (perf_counter time, or None): the candidates' total rewards and the deals.
    `playout(g, j)` plays on from candidate j applied to a clone of the deal, and scores."""
    totals = [0.0] * len(moves)
    deals = 0
    while deals < iterations:
        if deadline is not None and time.perf_counter() >= deadline:
            break
        base = sampler.sample_fast(rng)
        rewards = []
        for j, m in enumerate(moves):
            if deadline is not None and rewards and time.perf_counter() >= deadline:
                break  # a deal judged for only some candidates would not be a fair pair
            g = base.clone()
            g.apply(m)
            rewards.append(playout(g, j))
        if len(rewards) < len(moves):
            break
        for j, r in enumerate(rewards):
            totals[j] += r
        deals += 1
    return totals, deals


def search_stats(stats: dict | None, playouts: int, deals: int, started: float,
                 cpu_started: float) -> None:
    """Add a search's playouts (as iterations), deals and wall and CPU seconds to `stats`."""
    if stats is None:
        return
    stats["iterations"] = stats.get("iterations", 0) + playouts
    stats["deals"] = stats.get("deals", 0) + deals
    stats["search_seconds"] = stats.get("search_seconds", 0.0) + time.perf_counter() - started
    stats["search_cpu_seconds"] = (stats.get("search_cpu_seconds", 0.0)
                                   + process_time() - cpu_started)


def rollout_search(sampler, seat: int, rng, iterations=None, budget_ms=None,
                   stats=None) -> dict:
    """The candidate with the best mean reward after `iterations` deals (MAX_DEALS by
    default) or `budget_ms`, whichever comes first.
    `stats` counts playouts (one per candidate and deal) as iterations, and the deals."""
    deadline = deadline_of(budget_ms)
    iterations = MAX_DEALS if iterations is None else iterations
    started, cpu_started = time.perf_counter(), process_time()
    moves = candidates(sampler.sample_fast(rng), seat)
    if len(moves) == 1:
        return decode_move(moves[0])

    def basic_playout(g, _j):
        depth = 0
        while g.stage != OVER and depth < MAX_ROLLOUT:
            g.apply(fast_basic_move(g, g.mover()))
            depth += 1
        return EVALUATE(g, seat)

    totals, deals = paired_totals(sampler, rng, moves, basic_playout, iterations, deadline)
    search_stats(stats, deals * len(moves), deals, started, cpu_started)
    best = max(range(len(moves)), key=lambda j: (totals[j], -j))
    return decode_move(moves[best])


#: bet rollouts at most (each plays a determinization to the end of the round)
BET_ROLLOUTS = 400


def bet_for_win(sampler, seat: int, rng, iterations=None, budget_ms=None, stats=None) -> dict:
    """The bet that maximises the chance of winning the game: each determinization is
    played to the end of the round by the basic policy (bets do not change its play, so
    one rollout serves every bet), then every bet of `seat` (each other seat, value 0 or
    1) is settled on it and judged: in round 2 by whether `seat` ranks first, in round 1
    by its chance of winning the game from there (`outlook.win_chances`). Ties go to a
    bet of value 0 (which changes nothing) on the likeliest loser. `iterations` is
    ignored (it counts the search's deals): BET_ROLLOUTS or `budget_ms` bound the work."""
    deadline = (None if budget_ms is None
                else time.perf_counter() + 0.9 * budget_ms / 1000.0 - 0.010)
    limit = BET_ROLLOUTS  # `iterations` counts the search's deals, not these
    n = sampler.n
    others = [s for s in range(n) if s != seat]
    # option k: value 1 on others[k]; the last one: value 0
    totals = [0.0] * (n - 1)
    base_total = 0.0
    losses = [0] * n
    done = 0
    while done < limit and (deadline is None or time.perf_counter() < deadline):
        f = sampler.sample_fast(rng)
        f.apply((PLACE, seat, (others[0], 0)))
        moves = 0
        while f.stage != OVER and moves < 1000:
            f.apply(fast_basic_move(f, f.mover()))
            moves += 1
        done += 1
        if f.stage != OVER:
            continue
        loser = f.out.index(False)
        losses[loser] += 1
        scores = f.scores()
        if f.round == 2:
            last = f.last

            def wins(sc, last=last):
                return max(range(n), key=lambda s: (sc[s], last[s])) == seat
        else:
            def wins(sc, loser=loser):
                return win_chances(sc, loser)[seat]
        base_total += wins(scores)
        for k, on in enumerate(others):
            sc = scores[:]
            sc[seat if on == loser else on] += 1
            totals[k] += wins(sc)
    on = max(others, key=lambda s: (losses[s], -s))
    best_k = max(range(n - 1), key=lambda k: (totals[k], -k))
    if totals[best_k] > base_total:
        return {"seat": seat, "move": "bet", "on": others[best_k], "value": 1}
    return {"seat": seat, "move": "bet", "on": on, "value": 0}
