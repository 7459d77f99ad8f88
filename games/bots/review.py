"""The strong bot as a reviewer: what it would play at one decision, and how it rates the
move actually played, from that seat's view alone (as in play: fair by construction).

    best, chances = review_move(view(state, seat), seat, played, iterations=1000)
    chances[move_key(played)], chances[move_key(best)]

It runs the strong bot's own search (`plan.plan_trees`, the same deals for every move
judged). Estimates are each root move's mean reward (`rollout.EVALUATE` for the seat:
exact at the end of the game, else the heuristic chance of leading after the round),
which the review reports as the estimated chance of ranking first.
"""

import json
import random as _random

from games.engine.fast import KIND_NAMES, decode_move, encode_move

from .determinize import Sampler
from .ismcts import move_key as _fast_key
from .plan import plan_trees

#: playouts per decision by default (about 0.1 s of CPU on an idle core)
REVIEW_ITERATIONS = 1000


def move_key(move: dict) -> str:
    """One key per move whatever the order of its cards or pairs (the seat left out)."""
    return _key(encode_move({**move, "seat": 0}))


def review_move(view: dict, seat: int, played: dict, rng=None,
                iterations: int = REVIEW_ITERATIONS) -> tuple[dict, dict]:
    """(the strong bot's move, {move_key(move): estimated chance of ranking first}) at a
    play decision of `seat` (a RECORD.md move, with "seat"), computed from
    `view(state, seat)` alone after about `iterations` playouts; `played`, the move
    the seat made there (legal in the view), is always among the moves judged.
    A seat with a single sensible move gets it with an empty estimate. Bets are not
    reviewed (ValueError), nor positions not waiting on `seat`."""
    if "options" not in view or seat not in view["waiting_on"]:
        raise ValueError(f"the game does not wait on seat {seat}")
    if view["stage"] == "bet":
        raise ValueError("bets are not reviewed")
    if rng is None:
        rng = _random.Random()
    include = encode_move({**played, "seat": seat})
    counted: dict = {}
    moves, totals, _ = plan_trees(Sampler(view, seat), seat, rng, include=include,
                                  playouts=iterations, stats=counted)
    if len(moves) == 1:
        return decode_move(moves[0]), {}
    deals = counted["deals"]
    chances = {_key(m): totals[j] / deals for j, m in enumerate(moves)}
    best = max(range(len(moves)), key=lambda j: (totals[j], -j))  # ties: the basic move
    return decode_move(moves[best]), chances


def _key(m: tuple) -> str:
    return json.dumps([KIND_NAMES[m[0]], _fast_key(m)[2]])
