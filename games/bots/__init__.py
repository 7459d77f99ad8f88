"""Bots for Blaze, fair by construction: they see only one seat's view.

    from games.bots import choose_move
    move = choose_move(view(state, seat), seat, level="strong", budget_ms=1000)

Levels:
- `random`: uniform over every legal move of the seat, listed from its view alone
  (`legal_moves_of_view`: a few hundred moves at most).
- `basic`: rules of thumb (games/bots/basic.py).
- `strong`: a search over determinizations of the view (games/bots/plan.py: paired
  rollouts with a tree of the bot's own later decisions), with a time budget
  (`budget_ms`) or a count of deals (`iterations`).
"""

import random as _random

from games.engine.legal import legal_moves_of_view

from .basic import basic_move
from .determinize import Sampler, determinize
from .ismcts import bet_by_rollouts, search
from .plan import plan_search
from .review import REVIEW_ITERATIONS, move_key, review_move
from .rollout import bet_for_win, rollout_search

#: the strong bot's search: "plan" (games/bots/plan.py), "ismcts" (ismcts.py: the strong bot
#: before issue 33's plan search) or "rollout" (rollout.py); measured in docs/bots.md
SEARCH = "plan"

#: the strong bot's bets: "loser" (ismcts.bet_by_rollouts) or "win" (rollout.bet_for_win:
#: the bet with the best chance of winning the game; measured: no clear gain, docs/bots.md)
BET = "loser"

LEVELS = ("random", "basic", "strong")
DEFAULT_BUDGET_MS = 1000


def choose_move(view: dict, seat: int, rng=None, level: str = "basic",
                budget_ms: float | None = None, iterations: int | None = None,
                stats: dict | None = None) -> dict:
    """A legal RECORD.md move for `seat`, computed from `view(state, seat)` alone.

    Precondition: the game waits on `seat` (the view has `options`). `rng` is a
    `random.Random` (a fresh unseeded one by default); `stats`, when given,
    collects the strong bot's `iterations` and `search_seconds`.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown bot level {level!r}; choose from {', '.join(LEVELS)}")
    if "options" not in view or seat not in view["waiting_on"]:
        raise ValueError(f"the game does not wait on seat {seat}")
    if rng is None:
        rng = _random.Random()
    if level == "random":  # its own cards and options are all it needs: no deal sampled
        moves = legal_moves_of_view(view, seat)
        return moves[rng.randrange(len(moves))]
    sampler = Sampler(view, seat)
    if level == "basic":
        return basic_move(sampler.sample(rng), seat, rng)
    if budget_ms is None and iterations is None:
        budget_ms = DEFAULT_BUDGET_MS
    if view["stage"] == "bet":
        if BET == "win":
            return bet_for_win(sampler, seat, rng, iterations=iterations, budget_ms=budget_ms,
                               stats=stats)
        return bet_by_rollouts(sampler, seat, rng, iterations=iterations, budget_ms=budget_ms,
                               stats=stats)
    if SEARCH == "plan":
        return plan_search(sampler, seat, rng, iterations=iterations, budget_ms=budget_ms,
                           stats=stats)
    if SEARCH == "rollout":
        return rollout_search(sampler, seat, rng, iterations=iterations, budget_ms=budget_ms,
                              stats=stats)
    return search(sampler, seat, rng, iterations=iterations, budget_ms=budget_ms, stats=stats)


__all__ = ["DEFAULT_BUDGET_MS", "LEVELS", "REVIEW_ITERATIONS", "Sampler", "choose_move",
           "determinize", "move_key", "review_move"]
