"""The first strong bot (until issue 33), kept as a yardstick for the arena (`--vs strong-v1`).

Single-observer Information Set MCTS (Cowling, Powley & Whitehouse 2012) on the reference
engine, bets by the basic rule; unchanged but for this paragraph.

Each iteration deals the hidden cards anew (a determinization of the bot's
view), walks one tree shared by all determinizations, choosing among the
children whose moves are legal in this determinization by UCB1 with
availability counts, expands one new move, plays a short rollout with the
basic policy and scores the position with a heuristic (exact at the end of a
round). Rewards are kept per seat, so each node is judged by the seat that
moves there.

Moves are restricted to a handful of candidates per position (see
`candidates`), which keeps the tree narrow where the full move lists are huge.
"""

import time
from math import exp, log, sqrt

from games.engine.cards import RANK, REJECT_VALUE, SUIT
from games.engine.state import BET, EXTEND, OPEN, OVER, RESPOND

from .basic import basic_move, cheapest_rejection, keep_value

UCB_C = 0.7
ROLLOUT_DEPTH = 12
EPSILON = 0.1


def move_key(move: dict):
    """A hashable name of a move; the seat is part of it because automatic passes
    (which depend on hidden cards) can make different seats move at one node."""
    kind, seat = move["move"], move["seat"]
    if kind in ("challenge", "add"):
        return (seat, kind, tuple(sorted(move["cards"])))
    if kind == "reject":
        return (seat, kind, tuple(tuple(p) for p in move["pairs"]))
    if kind == "bet":
        return (seat, kind, move["on"], move["value"])
    return (seat, kind)


def candidates(state, seat: int) -> list:
    """A few sensible moves of `seat`: the basic move first, then alternatives."""
    base = basic_move(state, seat)
    moves = [base]
    stage = state.stage
    trump = state.trump
    hand = state.hands[seat]
    if stage == OPEN:
        by_rank: dict = {}
        for c in hand:
            by_rank.setdefault(RANK[c], []).append(c)
        for cards in by_rank.values():
            cards = sorted(cards, key=lambda c: (keep_value(c, trump), c))
            moves.append({"seat": seat, "move": "challenge", "cards": cards[:1]})
            if len(cards) > 1:
                moves.append({"seat": seat, "move": "challenge",
                              "cards": cards[:state.limit]})
    elif stage == RESPOND:
        moves.append({"seat": seat, "move": "pass"})
        pairs, _ = cheapest_rejection(state, seat)
        if pairs is not None:
            moves.append({"seat": seat, "move": "reject", "pairs": pairs})
    elif stage == EXTEND:
        moves.append({"seat": seat, "move": "done"})
        room = state.limit - len(state.table_cards)
        if room > 0:
            addable = sorted(set(state.addable(seat)), key=lambda c: (keep_value(c, trump), c))
            for c in addable:
                moves.append({"seat": seat, "move": "add", "cards": [c]})
            everything = sorted(state.addable(seat), key=lambda c: (keep_value(c, trump), c))
            if len(everything) > 1:
                moves.append({"seat": seat, "move": "add", "cards": everything[:room]})
    elif stage == BET:
        for on in range(state.n):
            if on != seat:
                moves.append({"seat": seat, "move": "bet", "on": on, "value": 1})
        moves.append({"seat": seat, "move": "bet", "on": base["on"], "value": 0})
    seen, result = set(), []
    for m in moves:
        k = move_key(m)
        if k not in seen:
            seen.add(k)
            result.append((k, m))
    return result


def _card_strength(card: str, trump: str) -> float:
    if SUIT[card] == trump:
        return 0.6 + 0.04 * (10 if RANK[card] == "F" else REJECT_VALUE[card])
    if RANK[card] == "F":
        return 0.3
    return 0.03 * (REJECT_VALUE[card] - 5)


def expected_totals(state) -> list:
    """Each seat's expected final score of this round (plus earlier rounds)."""
    n = state.n
    totals = state.scores
    if state.stage == OVER:
        return [float(t) for t in totals]
    trump = state.trump
    deck_left = len(state.deck) - state.deck_pos
    burden = {}
    for s in range(n):
        if state.out[s]:
            continue
        hand = state.hands[s]
        size = len(hand)
        b = size - sum(_card_strength(c, trump) for c in hand)
        if deck_left > 0 and size < 5:
            b += (5 - size) * 0.8  # will draw cards of average worth
        burden[s] = b
    # table cards go to the target if it passed
    if state.stage in (RESPOND, EXTEND) and state.passed and state.target in burden:
        rejections = sum(r is not None for r in state.table_rejections)
        burden[state.target] += 0.8 * (len(state.table_cards) + rejections)
    order = sorted(burden, key=lambda s: burden[s])
    stack = state.feather_stack
    temp = 1.0 if deck_left == 0 else 0.5
    weights = {s: exp(temp * (burden[s] - burden[order[-1]])) for s in order}
    wsum = sum(weights.values())
    lose = [0.0] * n
    result = [float(t) for t in totals]
    for rank, s in enumerate(order):
        lose[s] = weights[s] / wsum
        if rank < len(stack):
            # the feather its place suggests, hedged by its chance of losing
            result[s] += stack[rank] * (1.0 - lose[s])
    for s, bet in enumerate(state.bets):
        if bet is None or type(bet) is not tuple:
            continue
        on, value = bet
        value = 0.5 if value is None else value
        result[s] += value * lose[on]
        result[on] += value * (1.0 - lose[on])
    return result


def evaluate(state) -> list:
    """Reward in [0, 1] per seat: winning the game, else leading the others."""
    n = state.n
    if state.finished:
        ranking = state.ranking
        result = [0.0] * n
        for place, s in enumerate(ranking):
            result[s] = (1.0 if place == 0 else 0.0) * 0.8 + 0.2 * (n - 1 - place) / (n - 1)
        return result
    totals = expected_totals(state)
    result = []
    for s in range(n):
        best_other = max(totals[o] for o in range(n) if o != s)
        result.append(1.0 / (1.0 + exp(-(totals[s] - best_other) / 1.5)))
    return result


class Node:
    __slots__ = ("move", "mover", "children", "visits", "avail", "total")

    def __init__(self, move=None, mover=None):
        self.move = move
        self.mover = mover
        self.children = {}
        self.visits = 0
        self.avail = 1
        self.total = 0.0


def search(sampler, seat: int, rng, iterations=None, budget_ms=None, stats=None) -> dict:
    """The most visited root move after `iterations` or `budget_ms` of search."""
    root = Node()
    # stop a little early: the view, the sampler and the answer cost time too
    deadline = (None if budget_ms is None
                else time.perf_counter() + 0.97 * budget_ms / 1000.0 - 0.004)
    if iterations is None and deadline is None:
        iterations = 1000
    started = time.perf_counter()
    done = 0
    root_moves = None
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        state = sampler.sample(rng)
        if root_moves is None:
            root_moves = candidates(state, seat)
            if len(root_moves) == 1:
                return root_moves[0][1]
        node = root
        path = []
        # selection and expansion
        while state.stage != OVER:
            mover = state.waiting_on[0]
            cands = root_moves if node is root else candidates(state, mover)
            untried = []
            best, best_score = None, -1.0
            for key, move in cands:
                child = node.children.get(key)
                if child is None:
                    untried.append((key, move))
                    continue
                child.avail += 1
            if untried:
                key, move = untried[0] if not path and not node.children else \
                    untried[rng.randrange(len(untried))]
                child = Node(move, mover)
                node.children[key] = child
                state.apply(move)
                path.append(child)
                break
            for key, _move in cands:
                child = node.children[key]
                score = child.total / child.visits + UCB_C * sqrt(log(child.avail) / child.visits)
                if score > best_score:
                    best, best_score = child, score
            state.apply(best.move)
            path.append(best)
            node = best
        # rollout
        depth = 0
        while state.stage != OVER and depth < ROLLOUT_DEPTH:
            mover = state.waiting_on[0]
            if rng.random() < EPSILON:
                cands = candidates(state, mover)
                move = cands[rng.randrange(len(cands))][1]
            else:
                move = basic_move(state, mover)
            state.apply(move)
            depth += 1
        reward = evaluate(state)
        for child in path:
            child.visits += 1
            child.total += reward[child.mover]
        done += 1
    if stats is not None:
        stats["iterations"] = stats.get("iterations", 0) + done
        stats["search_seconds"] = stats.get("search_seconds", 0.0) + time.perf_counter() - started
    best = max(root.children.values(), key=lambda c: (c.visits, c.total))
    return best.move
