"""The strong bot's search over its own plan: paired rollouts with a tree of the bot's
later decisions under each root move.

`rollout.rollout_search` judges each root move followed by the basic policy for every
seat, the bot's own seat included: one step of policy improvement. Against basic bots
the basic policy is an exact model of the others, so this search improves the bot's own
later decisions too; against other bots a little noise in that model (OPPONENT_EPS) keeps
the plan from relying on the others' every move. Each iteration deals one determinization
and plays every root candidate on it (common random numbers, as the rollout search); below
each root move a tree holds only the bot's own decisions (the other seats play the basic
move of the dealt cards, which is what a basic bot would do, but for that noise), chosen
by UCB1 with availability counts over `ismcts.candidates`. Progressive widening keeps the
basic move first and admits other moves only as a node is visited, so early rollouts stay
basic ones.
"""

import time
from math import log, sqrt
from time import process_time

from games.engine.fast import OVER, decode_move

from . import rollout
from .fastbasic import fast_basic_move
from .ismcts import candidates, move_key

#: exploration constant of UCB1 below the root
UCB_C = 0.5
#: progressive widening: a node visited n times may try 1 + int(PW_C * n ** PW_ALPHA) moves
PW_C = 0.5
PW_ALPHA = 0.5
#: with a time budget, stop after this many deals
MAX_DEALS = 200
#: a playout's reward is multiplied by DISCOUNT ** moves: below 1, a shorter way to the
#: same result wins, so the bot does not defer a decision by going round in circles
DISCOUNT = 1.0
#: the opponent model, by the stage of another seat's move (open, respond, extend, bet): it
#: plays the basic move, but with this probability a move drawn uniformly from its
#: candidates (`ismcts.candidates`). All 0 is the basic bot exactly; other strong bots are
#: not it (the first one leaves the basic move at almost half its choices), and noise keeps
#: the plan from relying on their every move. Noise on openings and additions only was
#: measured best: it gains against the first strong bot and costs nothing visible against
#: basic bots, which noise at every stage did (docs/bots.md, "Opponent noise")
OPPONENT_EPS = (0.3, 0.0, 0.3, 0.0)

# a 31-bit linear congruential generator for the opponents' noise: cheap, and seeded from
# the search's rng, so a seeded search is reproducible
_LCG_A = 1103515245
_LCG_C = 12345
_LCG_M = 0x7FFFFFFF


class Node:
    __slots__ = ("children", "visits", "avail", "total", "seen")

    def __init__(self):
        self.children = {}
        self.visits = 0  # times chosen (as a child)
        self.avail = 1  # times it could have been chosen
        self.total = 0.0
        self.seen = 0  # times the bot decided here (as a parent)


def _playout(g, seat: int, node: Node, evaluate, x: int = 0, thresholds=None) -> float:
    """Play `g` to the end of the round: the bot's seat through the tree while it can,
    everyone else (and the bot once off the tree) by the basic policy. `thresholds`: None,
    or by stage the LCG values below which another seat plays a random move instead
    (OPPONENT_EPS), the LCG starting from `x`."""
    path = []
    in_tree = True
    depth = 0
    limit = rollout.MAX_ROLLOUT
    while g.stage != OVER and depth < limit:
        depth += 1
        mover = g.mover()
        if mover != seat or not in_tree:
            if thresholds is not None and mover != seat and thresholds[g.stage]:
                x = (x * _LCG_A + _LCG_C) & _LCG_M
                if x < thresholds[g.stage]:
                    x = (x * _LCG_A + _LCG_C) & _LCG_M
                    others = candidates(g, mover)
                    g.apply(others[(x >> 16) % len(others)])
                    continue
            g.apply(fast_basic_move(g, mover))
            continue
        cands = candidates(g, seat)
        if len(cands) == 1:
            g.apply(cands[0])
            continue
        allowed = 1 + int(PW_C * node.seen ** PW_ALPHA)
        node.seen += 1
        children = node.children
        best, best_score = None, -1.0
        new = None
        for m in cands[:allowed]:
            child = children.get(m)
            if child is None:
                new = m
                break
            child.avail += 1
        if new is not None:
            child = children[new] = Node()
            g.apply(new)
            path.append(child)
            in_tree = False
            continue
        for m in cands[:allowed]:
            child = children[m]
            v = child.visits
            score = child.total / v + UCB_C * sqrt(log(child.avail) / v)
            if score > best_score:
                best, best_score, move = child, score, m
        g.apply(move)
        path.append(best)
        node = best
    reward = evaluate(g, seat)
    if DISCOUNT != 1.0:
        reward *= DISCOUNT ** depth
    for child in path:
        child.visits += 1
        child.total += reward
    return reward


def plan_search(sampler, seat: int, rng, iterations=None, budget_ms=None, stats=None) -> dict:
    """The root candidate with the best mean reward over `iterations` deals (MAX_DEALS
    by default) or `budget_ms`; `stats` counts playouts as iterations, and the deals."""
    moves, totals, _ = plan_trees(sampler, seat, rng, iterations, budget_ms, stats)
    best = max(range(len(moves)), key=lambda j: (totals[j], -j))
    return decode_move(moves[best])


def plan_trees(sampler, seat: int, rng, iterations=None, budget_ms=None, stats=None,
               include: tuple | None = None, playouts: int | None = None):
    """The search itself: (root candidates, their total rewards, the tree under each).
    `include`: a fast move of `seat`, legal in the view, judged among the root's
    candidates too (the review's move actually played); `playouts`: instead of
    `iterations`, as many deals as give every candidate this many playouts in all."""
    deadline = rollout.deadline_of(budget_ms)
    iterations = MAX_DEALS if iterations is None else iterations
    started, cpu_started = time.perf_counter(), process_time()
    moves = candidates(sampler.sample_fast(rng), seat)
    if include is not None and move_key(include) not in {move_key(m) for m in moves}:
        moves.append(include)
    if playouts is not None:
        iterations = max(1, playouts // len(moves))
    trees = [Node() for _ in moves]
    totals = [0.0] * len(moves)
    if len(moves) == 1:
        return moves, totals, trees
    evaluate = rollout.EVALUATE
    # Every candidate of a deal meets the same noise (common random numbers again); with
    # no noise the rng is not drawn from, so the search is the basic-model one.
    thresholds = tuple(int(e * _LCG_M) for e in OPPONENT_EPS) if any(OPPONENT_EPS) else None
    deal_seed = [0]

    def playout(g, j):
        if thresholds is not None and j == 0:  # a new deal
            deal_seed[0] = rng.getrandbits(31)
        return _playout(g, seat, trees[j], evaluate, deal_seed[0], thresholds)

    totals, deals = rollout.paired_totals(sampler, rng, moves, playout, iterations, deadline)
    rollout.search_stats(stats, deals * len(moves), deals, started, cpu_started)
    return moves, totals, trees
