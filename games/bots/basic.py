"""The basic bot: rules of thumb, a few microseconds per move.

`basic_move(state, seat, rng)` reads only what `seat` may see (its own hand and
public facts), so it gives the same answer on the true state and on any
determinization of the seat's view. The strong bot uses it for its rollouts.

Rules of thumb:
- open with the cheapest rank (non-trump, low), several cards of one rank when
  the group is cheap; keep trumps and Firebirds for later;
- reject with the cheapest cards (non-trump first); in phase 1, while the deck
  is large, pass rather than spend high trumps on a few low cards;
- in phase 2 always reject when possible: every card played is one less to shed;
- add low non-trump cards to press the target; after a pass, unload junk on the
  target (in phase 2 any card);
- bet value 1 on the seat most likely to lose (most cards), 0 when unsure.
"""

from math import exp

from games.engine.cards import CHALLENGE_VALUE, RANK, REJECT_VALUE, SUIT, can_reject
from games.engine.state import BET, EXTEND, OPEN, RESPOND


def keep_value(card: str, trump: str) -> float:
    """How much a card is worth keeping (higher: play it later)."""
    if SUIT[card] == trump:
        return 22.0 if RANK[card] == "F" else 10.0 + REJECT_VALUE[card]
    if RANK[card] == "F":
        return 8.5
    return float(REJECT_VALUE[card])


def open_move(state, seat: int) -> dict:
    hand, trump, limit = state.hands[seat], state.trump, state.limit
    phase2 = state.deck_pos >= len(state.deck)
    by_rank: dict = {}
    for c in hand:
        by_rank.setdefault(RANK[c], []).append(c)
    # shed everything at once when the whole hand is one rank
    if len(by_rank) == 1 and len(hand) <= limit:
        return {"seat": seat, "move": "challenge", "cards": sorted(hand)}
    best, best_score = None, None
    bonus = 3.0 if phase2 else 1.5
    for cards in by_rank.values():
        plain = sorted(c for c in cards if SUIT[c] != trump)
        if not plain:
            continue
        plain = plain[:limit]
        score = sum(keep_value(c, trump) for c in plain) / len(plain) - bonus * (len(plain) - 1)
        if best_score is None or score < best_score:
            best, best_score = plain, score
    if best is None:
        card = min(hand, key=lambda c: (keep_value(c, trump), c))
        best = [card]
    return {"seat": seat, "move": "challenge", "cards": best}


def cheapest_rejection(state, seat: int):
    """(pairs, cost) of a cheap full rejection, or (None, None) if none exists."""
    trump = state.trump
    hand = state.hands[seat]
    idx = [i for i, r in enumerate(state.table_rejections) if r is None]
    # hardest challenge cards first: trumps, then high values
    order = sorted(idx, key=lambda i: (SUIT[state.table_cards[i]] != trump,
                                       -CHALLENGE_VALUE[state.table_cards[i]]))
    left = sorted(hand, key=lambda c: (keep_value(c, trump), c))
    pairs, cost = [], 0.0
    for i in order:
        c = state.table_cards[i]
        for r in left:
            if can_reject(c, r, trump):
                left.remove(r)
                pairs.append([i, r])
                cost += keep_value(r, trump)
                break
        else:
            break
    else:
        pairs.sort()
        return pairs, cost
    # greedy failed: a small branch-and-bound search, most constrained card first
    fits = {i: sorted((r for r in set(hand) if can_reject(state.table_cards[i], r, trump)),
                      key=lambda r: (keep_value(r, trump), r)) for i in idx}
    order = sorted(idx, key=lambda i: len(fits[i]))
    best = [None, None]
    left = {}
    for r in hand:
        left[r] = left.get(r, 0) + 1

    def dfs(k: int, chosen: list, cost: float) -> None:
        if best[1] is not None and cost >= best[1]:
            return
        if k == len(order):
            best[0], best[1] = sorted(chosen), cost
            return
        i = order[k]
        for r in fits[i]:
            if left[r]:
                left[r] -= 1
                chosen.append([i, r])
                dfs(k + 1, chosen, cost + keep_value(r, trump))
                chosen.pop()
                left[r] += 1

    dfs(0, [], 0.0)
    return best[0], best[1]


def respond_move(state, seat: int) -> dict:
    pairs, cost = cheapest_rejection(state, seat)
    if pairs is None:
        return {"seat": seat, "move": "pass"}
    trump = state.trump
    deck_left = len(state.deck) - state.deck_pos
    if deck_left >= 8:
        high_trumps = sum(1 for _, r in pairs if SUIT[r] == trump and keep_value(r, trump) >= 16)
        trumps = sum(1 for _, r in pairs if SUIT[r] == trump)
        on_table = len(state.table_cards)
        low_table = all(CHALLENGE_VALUE[c] <= 6 or SUIT[c] == trump for c in state.table_cards)
        if (high_trumps and on_table <= 2 and low_table) or (trumps >= 2 and on_table <= 3):
            return {"seat": seat, "move": "pass"}
    return {"seat": seat, "move": "reject", "pairs": pairs}


def extend_move(state, seat: int) -> dict:
    room = state.limit - len(state.table_cards)
    addable = state.addable(seat) if room > 0 else []
    if not addable:
        return {"seat": seat, "move": "done"}
    trump = state.trump
    phase2 = state.deck_pos >= len(state.deck)
    addable.sort(key=lambda c: (keep_value(c, trump), c))
    if state.passed:
        limit = 99.0 if phase2 else 7.0
    else:
        limit = 9.0 if phase2 else 5.0
    chosen = [c for c in addable if keep_value(c, trump) <= limit][:room]
    if not chosen:
        return {"seat": seat, "move": "done"}
    return {"seat": seat, "move": "add", "cards": chosen}


def loss_chances(state, seat: int) -> list:
    """Rough chance of each seat losing the round, from public hand sizes."""
    n = state.n
    weights = []
    for s in range(n):
        if state.out[s] or not state.hands[s]:
            weights.append(0.0)
        else:
            weights.append(exp(0.8 * len(state.hands[s])))
    total = sum(weights) or 1.0
    return [w / total for w in weights]


def bet_move(state, seat: int) -> dict:
    p = loss_chances(state, seat)
    others = [s for s in range(state.n) if s != seat]
    on = max(others, key=lambda s: (p[s], -s))
    value = 1 if p[on] >= 0.35 else 0
    return {"seat": seat, "move": "bet", "on": on, "value": value}


def basic_move(state, seat: int, rng=None) -> dict:
    """The rules-of-thumb move of `seat`, which the state must be waiting on."""
    stage = state.stage
    if stage == OPEN:
        return open_move(state, seat)
    if stage == RESPOND:
        return respond_move(state, seat)
    if stage == EXTEND:
        return extend_move(state, seat)
    if stage == BET:
        return bet_move(state, seat)
    raise ValueError(f"seat {seat} has nothing to do at stage {stage}")
