"""The strong bot: single-observer Information Set MCTS (Cowling, Powley & Whitehouse 2012).

Each iteration deals the hidden cards anew (a determinization of the bot's view, as a
compact `games.engine.fast.FastState`), walks one tree shared by all determinizations,
choosing among the children whose moves are legal in this determinization by UCB1 with
availability counts, expands one new move, plays a short rollout with the basic policy
and scores the position with a heuristic (exact at the end of a round). Rewards are
kept per seat, so each node is judged by the seat that moves there.

Moves are restricted to a handful of candidates per position (see `candidates`),
which keeps the tree narrow where the full move lists are huge. Moves are the fast
engine's tuples, which include the seat: automatic passes depend on hidden cards, so
different seats can move at one node.
"""

import time
from math import exp, log, sqrt
from time import process_time

from games.engine.fast import (
    ADD,
    BET,
    CHALLENGE,
    DONE,
    EXTEND,
    OPEN,
    OVER,
    PASS,
    PLACE,
    REJECT,
    RESPOND,
    RV,
    decode_move,
)

from .fastbasic import (
    SORT_KEY,
    basic_move_now,
    cheapest_rejection,
    extend_choice,
    fast_basic_move,
    keeps_trumps,
)

UCB_C = 0.7
ROLLOUT_DEPTH = 12
EPSILON = 0.1
#: other seats play the basic move in the tree too (an opponent model), not a choice
OPPONENTS_BASIC = False


def _canonical(m: tuple) -> tuple:
    if m[0] == CHALLENGE or m[0] == ADD:
        return (m[0], m[1], tuple(sorted(m[2])))
    return m


def candidates(f, seat: int) -> list:
    """A few sensible moves of `seat` (fast move tuples): the basic move first."""
    stage = f.stage
    if stage == RESPOND:
        # the basic move is one of these two: one search for the cheapest rejection
        pairs, _ = cheapest_rejection(f, seat)
        if pairs is None:
            return [(PASS, seat, None)]
        if keeps_trumps(f, pairs):
            return [(PASS, seat, None), (REJECT, seat, pairs)]
        return [(REJECT, seat, pairs), (PASS, seat, None)]
    if stage == EXTEND:
        done = (DONE, seat, None)
        room = f.limit - len(f.tc)
        if room <= 0:
            return [done]
        addable = f.addable(seat)
        if not addable:
            return [done]
        addable.sort(key=SORT_KEY[f.trump].__getitem__)
        moves = [_canonical(extend_choice(f, seat, addable, room)), done]
        for c in sorted(set(addable)):
            moves.append((ADD, seat, (c,)))
        if len(addable) > 1:
            moves.append((ADD, seat, tuple(sorted(addable[:room]))))
        return list(dict.fromkeys(moves))
    base = _canonical(fast_basic_move(f, seat))
    moves = [base]
    if stage == OPEN:
        key = SORT_KEY[f.trump].__getitem__
        by_rank: dict = {}
        for c in f.hands[seat]:
            by_rank.setdefault(c % 10, []).append(c)
        for cards in by_rank.values():
            if len(cards) == 1:
                moves.append((CHALLENGE, seat, (cards[0],)))
                continue
            cards.sort(key=key)
            moves.append((CHALLENGE, seat, (cards[0],)))
            moves.append((CHALLENGE, seat, tuple(sorted(cards[:f.limit]))))
    elif stage == BET:
        for on in range(f.n):
            if on != seat:
                moves.append((PLACE, seat, (on, 1)))
        moves.append((PLACE, seat, (base[2][0], 0)))
    return list(dict.fromkeys(moves))


def _strength(c: int, t: int) -> float:
    if c // 10 == t:
        return 0.6 + 0.04 * (10 if c % 10 == 9 else RV[c])
    if c % 10 == 9:
        return 0.3
    return 0.03 * (RV[c] - 5)


#: STRENGTH[trump][card]: how much a card lightens its hand (a hand's burden)
STRENGTH = tuple(tuple(_strength(c, t) for c in range(30)) for t in range(3))


def expected_totals(f) -> list:
    """Each seat's expected final score of this round (plus earlier rounds)."""
    n = f.n
    piles, fscore = f.bet_piles, f.fscore
    if f.stage == OVER:
        return [float(piles[s] + fscore[s]) for s in range(n)]
    strength = STRENGTH[f.trump]
    drawing = len(f.deck) > f.deck_pos
    hands, out = f.hands, f.out
    burden = [0.0] * n
    seats = []
    for s in range(n):
        if out[s]:
            continue
        hand = hands[s]
        size = len(hand)
        b = size - sum([strength[c] for c in hand])
        if drawing and size < 5:
            b += (5 - size) * 0.8  # will draw cards of average worth
        burden[s] = b
        seats.append(s)
    # table cards go to the target if it passed
    target = f.target
    if (f.stage == RESPOND or f.stage == EXTEND) and f.passed and not out[target]:
        rejections = sum(1 for r in f.tr if r >= 0)
        burden[target] += 0.8 * (len(f.tc) + rejections)
    order = sorted(seats, key=burden.__getitem__)
    stack = f.stack
    temp = 0.5 if drawing else 1.0
    top = burden[order[-1]]
    weights = [exp(temp * (burden[s] - top)) for s in order]
    wsum = sum(weights)
    lose = [0.0] * n
    result = [float(piles[s] + fscore[s]) for s in range(n)]
    depth = len(stack)
    for rank, s in enumerate(order):
        lose[s] = p = weights[rank] / wsum
        if rank < depth:
            # the feather its place suggests, hedged by its chance of losing
            result[s] += stack[rank] * (1.0 - p)
    for s, bet in enumerate(f.bets):
        if bet is None:
            continue
        on, value = bet
        value = 0.5 if value is None else value
        result[s] += value * lose[on]
        result[on] += value * (1.0 - lose[on])
    return result


def evaluate(f) -> list:
    """Reward in [0, 1] per seat: winning the game, else leading the others."""
    n = f.n
    if f.losers == 2:
        result = [0.0] * n
        for place, s in enumerate(f.ranking()):
            result[s] = (0.8 if place == 0 else 0.0) + 0.2 * (n - 1 - place) / (n - 1)
        return result
    totals = expected_totals(f)
    # the best other total is the top one, or the second for the seat holding the top
    first = max(range(n), key=totals.__getitem__)
    top = totals[first]
    second = max([totals[o] for o in range(n) if o != first])
    return [1.0 / (1.0 + exp(-(t - (second if s == first else top)) / 1.5))
            for s, t in enumerate(totals)]


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
    """The most visited root move (a RECORD.md move) after `iterations` or `budget_ms`."""
    root, root_moves = search_tree(sampler, seat, rng, iterations, budget_ms, stats)
    if root is None:
        return decode_move(root_moves[0])
    return decode_move(best_child(root).move)


def best_child(root: Node) -> Node:
    """The root's most visited child (ties: the better total)."""
    return max(root.children.values(), key=lambda c: (c.visits, c.total))


def move_key(m: tuple) -> tuple:
    """A fast move as one key whatever the order of its cards or pairs."""
    if m[0] == REJECT:
        return (m[0], m[1], tuple(sorted(m[2])))
    return _canonical(m)


def search_tree(sampler, seat: int, rng, iterations=None, budget_ms=None, stats=None,
                include: tuple | None = None):
    """The search itself: (root, root moves) after `iterations` or `budget_ms`; root is None
    when the seat has one candidate only. `include`: a fast move of `seat`, legal in the
    view, to judge among the root's candidates too (the review's move actually played)."""
    root = Node()
    # stop early enough for the view, the sampler, the answer and a busy machine's
    # scheduling (at 97% of the budget the p95 reached 1,020 ms of 1,000 on a loaded host)
    deadline = (None if budget_ms is None
                else time.perf_counter() + 0.9 * budget_ms / 1000.0 - 0.010)
    if iterations is None and deadline is None:
        iterations = 1000
    started, cpu_started = time.perf_counter(), process_time()
    done = 0
    root_moves = None
    random_ = rng.random
    while True:
        if iterations is not None and done >= iterations:
            break
        if deadline is not None and time.perf_counter() >= deadline:
            break
        f = sampler.sample_fast(rng)
        if root_moves is None:
            root_moves = candidates(f, seat)
            if include is not None:
                keys = {move_key(m) for m in root_moves}
                if move_key(include) not in keys:
                    root_moves.append(include)
            if len(root_moves) == 1:
                return None, root_moves
        node = root
        path = []
        # selection and expansion
        while f.stage != OVER:
            mover = f.mover()
            if node is root:
                cands = root_moves
            elif mover == seat or not OPPONENTS_BASIC:
                cands = candidates(f, mover)
            else:
                cands = [_canonical(fast_basic_move(f, mover))]
            children = node.children
            get = children.get
            untried = []
            tried = []
            for m in cands:
                child = get(m)
                if child is None:
                    untried.append(m)
                else:
                    child.avail += 1
                    tried.append(child)
            if untried:
                m = untried[0] if not path and not children else \
                    untried[rng.randrange(len(untried))]
                child = Node(m, mover)
                children[m] = child
                f.apply(m)
                path.append(child)
                break
            best, best_score = None, -1.0
            for child in tried:
                visits = child.visits
                score = child.total / visits + UCB_C * sqrt(log(child.avail) / visits)
                if score > best_score:
                    best, best_score = child, score
            f.apply(best.move)
            path.append(best)
            node = best
        # rollout
        depth = 0
        while f.stage != OVER and depth < ROLLOUT_DEPTH:
            if random_() < EPSILON:
                cands = candidates(f, f.mover())
                m = cands[rng.randrange(len(cands))]
            else:
                m = basic_move_now(f)
            f.apply(m)
            depth += 1
        reward = evaluate(f)
        for child in path:
            child.visits += 1
            child.total += reward[child.mover]
        done += 1
    if stats is not None:
        stats["iterations"] = stats.get("iterations", 0) + done
        stats["search_seconds"] = stats.get("search_seconds", 0.0) + time.perf_counter() - started
        stats["search_cpu_seconds"] = (stats.get("search_cpu_seconds", 0.0)
                                       + process_time() - cpu_started)
    return root, root_moves


BET_ROLLOUTS = 400
BET_THRESHOLD = 0.4


def bet_by_rollouts(sampler, seat: int, rng, iterations=None, budget_ms=None, stats=None) -> dict:
    """The strong bot's bet: each seat's chance of losing the round, estimated by playing
    determinizations to the end of the round with the basic policy; value 1 on the seat
    most likely to lose when that chance is at least BET_THRESHOLD, else 0 on it.
    (Bets do not change the basic policy's play, so one rollout serves every bet.) Its
    rollouts are not search iterations: `stats` is left alone."""
    deadline = (None if budget_ms is None
                else time.perf_counter() + 0.97 * budget_ms / 1000.0 - 0.004)
    limit = BET_ROLLOUTS if iterations is None else min(iterations, BET_ROLLOUTS)
    losses = [0] * sampler.n
    done = 0
    while done < limit and (deadline is None or time.perf_counter() < deadline):
        f = sampler.sample_fast(rng)
        moves = 0
        while f.stage != OVER and moves < 1000:
            f.apply(fast_basic_move(f, f.mover()))
            moves += 1
        if f.stage == OVER:
            losses[f.out.index(False)] += 1
        done += 1
    total = sum(losses) or 1
    on = max((s for s in range(sampler.n) if s != seat), key=lambda s: (losses[s], -s))
    value = 1 if losses[on] / total >= BET_THRESHOLD else 0
    return {"seat": seat, "move": "bet", "on": on, "value": value}
