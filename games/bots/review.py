"""The strong bot as a reviewer: what it would play at one decision, and how it rates the
move actually played, from that seat's view alone (as in play: fair by construction).

    best, chances = review_move(view(state, seat), seat, played, iterations=1000)
    chances[move_key(played)], chances[move_key(best)]

Estimates are the ISMCTS's mean reward of each root move (`ismcts.evaluate` for the
seat: exact at the end of the game, else its heuristic chance of leading), which the
review reports as the estimated chance of ranking first.
"""

import json
import random as _random

from games.engine.fast import KIND_NAMES, decode_move, encode_move

from .determinize import Sampler
from .ismcts import best_child, search_tree
from .ismcts import move_key as _fast_key

#: iterations per decision by default (about 0.1 s of CPU on an idle core)
REVIEW_ITERATIONS = 1000


def move_key(move: dict) -> str:
    """One key per move whatever the order of its cards or pairs (the seat left out)."""
    return _key(encode_move({**move, "seat": 0}))


def review_move(view: dict, seat: int, played: dict, rng=None,
                iterations: int = REVIEW_ITERATIONS) -> tuple[dict, dict]:
    """(the strong bot's move, {move_key(move): estimated chance of ranking first}) at a
    play decision of `seat` (a RECORD.md move, with "seat"), computed from
    `view(state, seat)` alone after `iterations` ISMCTS iterations; `played`, the move
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
    root, root_moves = search_tree(Sampler(view, seat), seat, rng, iterations=iterations,
                                   include=include)
    if root is None:
        return decode_move(root_moves[0]), {}
    chances = {}
    for child in root.children.values():
        if child.visits:
            chances[_key(child.move)] = child.total / child.visits
    return decode_move(best_child(root).move), chances


def _key(m: tuple) -> str:
    return json.dumps([KIND_NAMES[m[0]], _fast_key(m)[2]])
