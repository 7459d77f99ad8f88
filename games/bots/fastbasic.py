"""The basic bot's rules of thumb on the fast engine's compact states (games/engine/fast.py).

The same decisions as `basic.basic_move` (tests/bots/test_fast_policy.py checks they agree
on many positions), several times cheaper: the strong bot plays its rollouts with it.
Moves are fast move tuples; cards keep the order the reference bot gives them.
"""

from math import exp

from games.engine.fast import (
    ADD,
    BET,
    CHALLENGE,
    CV,
    DONE,
    EXTEND,
    OPEN,
    PASS,
    PLACE,
    REJ,
    REJECT,
    RESPOND,
    RV,
)


def _keep(c: int, t: int) -> float:
    if c // 10 == t:
        return 22.0 if c % 10 == 9 else 10.0 + RV[c]
    return 8.5 if c % 10 == 9 else float(RV[c])


#: KEEP[trump][card]: how much a card is worth keeping (basic.keep_value)
KEEP = tuple(tuple(_keep(c, t) for c in range(30)) for t in range(3))
#: SORT_KEY[trump][card]: orders cards like sorting by (keep_value, card)
SORT_KEY = tuple(tuple(KEEP[t][c] * 64 + c for c in range(30)) for t in range(3))


def open_move(f, seat: int) -> tuple:
    hand, t, limit = f.hands[seat], f.trump, f.limit
    keep = KEEP[t]
    # non-trump cards by rank, ranks in order of first appearance (ties go to the first,
    # as in basic.open_move)
    plains: dict = {}
    for c in hand:
        r = c % 10
        plain = plains.get(r)
        if plain is None:
            plains[r] = plain = []
        if c // 10 != t:
            plain.append(c)
    if len(plains) == 1 and len(hand) <= limit:
        return (CHALLENGE, seat, tuple(sorted(hand)))
    best, best_score = None, 1e9
    bonus = 3.0 if f.deck_pos >= len(f.deck) else 1.5
    for plain in plains.values():
        k = len(plain)
        if k == 0:
            continue
        if k == 1:
            score = keep[plain[0]]
        else:
            plain.sort()
            if k > limit:
                plain = plain[:limit]
                k = limit
            score = sum([keep[c] for c in plain]) / k - bonus * (k - 1)
        if score < best_score:
            best, best_score = plain, score
    if best is None:
        return (CHALLENGE, seat, (min(hand, key=SORT_KEY[t].__getitem__),))
    return (CHALLENGE, seat, tuple(best))


def cheapest_rejection(f, seat: int):
    """(pairs, cost) of a cheap full rejection (pairs sorted by index), or (None, None)."""
    t = f.trump
    keep, rej = KEEP[t], REJ[t]
    hand, tc = f.hands[seat], f.tc
    if f.unrejected == 1:
        # the common case: the cheapest card that fits, as the greedy pass below finds it
        i = f.tr.index(-1)
        bits, sort_key = rej[tc[i]], SORT_KEY[t]
        best, best_key = -1, 1e9
        for r in hand:
            if bits >> r & 1 and sort_key[r] < best_key:
                best, best_key = r, sort_key[r]
        return (((i, best),), keep[best]) if best >= 0 else (None, None)
    idx = [i for i, r in enumerate(f.tr) if r < 0]
    idx.sort(key=lambda i: (tc[i] // 10 != t, -CV[tc[i]]))
    left = sorted(hand, key=SORT_KEY[t].__getitem__)
    pairs, cost = [], 0.0
    for i in idx:
        bits = rej[tc[i]]
        for r in left:
            if bits >> r & 1:
                left.remove(r)
                pairs.append((i, r))
                cost += keep[r]
                break
        else:
            break
    else:
        pairs.sort()
        return tuple(pairs), cost
    # greedy failed: a small branch-and-bound search, most constrained card first
    sort_key = SORT_KEY[t].__getitem__
    fits = {i: sorted([r for r in set(hand) if rej[tc[i]] >> r & 1], key=sort_key) for i in idx}
    order = sorted(idx, key=lambda i: len(fits[i]))
    best = [None, None]
    counts: dict = {}
    for r in hand:
        counts[r] = counts.get(r, 0) + 1

    def dfs(k: int, chosen: list, cost: float) -> None:
        if best[1] is not None and cost >= best[1]:
            return
        if k == len(order):
            best[0], best[1] = tuple(sorted(chosen)), cost
            return
        i = order[k]
        for r in fits[i]:
            if counts[r]:
                counts[r] -= 1
                chosen.append((i, r))
                dfs(k + 1, chosen, cost + keep[r])
                chosen.pop()
                counts[r] += 1

    dfs(0, [], 0.0)
    return best[0], best[1]


def respond_move(f, seat: int) -> tuple:
    pairs, _ = cheapest_rejection(f, seat)
    if pairs is None or keeps_trumps(f, pairs):
        return (PASS, seat, None)
    return (REJECT, seat, pairs)


def keeps_trumps(f, pairs) -> bool:
    """Whether the basic bot passes rather than spend these trumps (8+ cards to draw)."""
    if len(f.deck) - f.deck_pos >= 8:
        t = f.trump
        keep = KEEP[t]
        high_trumps = trumps = 0
        for _, r in pairs:
            if r // 10 == t:
                trumps += 1
                if keep[r] >= 16:
                    high_trumps += 1
        if high_trumps or trumps >= 2:
            on_table = len(f.tc)
            return (trumps >= 2 and on_table <= 3) or (
                high_trumps and on_table <= 2 and all(CV[c] <= 6 or c // 10 == t for c in f.tc))
    return False


def extend_move(f, seat: int) -> tuple:
    room = f.limit - len(f.tc)
    if room <= 0:
        return (DONE, seat, None)
    values = f.values
    addable = [c for c in f.hands[seat] if values >> CV[c] & 1]
    if not addable:
        return (DONE, seat, None)
    addable.sort(key=SORT_KEY[f.trump].__getitem__)
    return extend_choice(f, seat, addable, room)


def extend_choice(f, seat: int, addable: list, room: int) -> tuple:
    """The basic add among `addable` (sorted by SORT_KEY, not empty) with `room` > 0."""
    keep = KEEP[f.trump]
    phase2 = f.deck_pos >= len(f.deck)
    if f.passed:
        limit = 99.0 if phase2 else 7.0
    else:
        limit = 9.0 if phase2 else 5.0
    chosen = [c for c in addable if keep[c] <= limit][:room]
    if not chosen:
        return (DONE, seat, None)
    return (ADD, seat, tuple(chosen))


#: LOSS_WEIGHT[k]: exp(0.8 * k), a hand of k cards' weight in the chance of losing
LOSS_WEIGHT = tuple(exp(0.8 * k) for k in range(121))


def loss_chances(f) -> list:
    out, hands = f.out, f.hands
    weights = [0.0 if out[s] or not hands[s] else LOSS_WEIGHT[len(hands[s])]
               for s in range(f.n)]
    total = sum(weights) or 1.0
    return [w / total for w in weights]


def bet_move(f, seat: int) -> tuple:
    p = loss_chances(f)
    # the likeliest loser among the others (ties: the lower seat)
    on, best = -1, -1.0
    for s in range(f.n):
        if s != seat and p[s] > best:
            on, best = s, p[s]
    return (PLACE, seat, (on, 1 if best >= 0.35 else 0))


def basic_move_now(f) -> tuple:
    """The basic move of the first seat the game waits on (`f.mover()`)."""
    stage = f.stage
    if stage == OPEN:
        return open_move(f, f.active)
    if stage == RESPOND:
        return respond_move(f, f.target)
    if stage == EXTEND:
        return extend_move(f, f.supporter if f.active_done else f.active)
    if stage == BET:
        return bet_move(f, f.bets.index(None))
    raise ValueError(f"nobody has anything to do at stage {stage}")


def fast_basic_move(f, seat: int) -> tuple:
    """basic.basic_move on a FastState, as a fast move tuple."""
    stage = f.stage
    if stage == OPEN:
        return open_move(f, seat)
    if stage == RESPOND:
        return respond_move(f, seat)
    if stage == EXTEND:
        return extend_move(f, seat)
    if stage == BET:
        return bet_move(f, seat)
    raise ValueError(f"seat {seat} has nothing to do at stage {stage}")
