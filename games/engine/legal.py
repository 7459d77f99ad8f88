"""What a seat may do now: full legal-move lists, the API's `options`, random moves."""

from itertools import combinations

from .cards import RANK, can_reject
from .state import BET, EXTEND, OPEN, RESPOND, State


def _sub_multisets(cards: list, max_size: int) -> list[list]:
    """Distinct sub-multisets of `cards` with 1 to `max_size` cards, sorted."""
    cards = sorted(cards)
    seen = set()
    result = []
    for k in range(1, min(max_size, len(cards)) + 1):
        for combo in combinations(cards, k):
            if combo not in seen:
                seen.add(combo)
                result.append(list(combo))
    return result


def _reject_assignments(state: State) -> list[list]:
    """Every distinct way to reject all unrejected cards with distinct hand cards."""
    trump = state.trump
    hand = sorted(state.hands[state.target])
    rejecters = {i: {c for c in hand if can_reject(state.table_cards[i], c, trump)}
                 for i, r in enumerate(state.table_rejections) if r is None}
    return _assignments(sorted(rejecters), hand, rejecters)


def legal_moves(state: State, seat: int | None = None) -> list[dict]:
    """Every legal move now (of `seat`, or of everyone waited on), as RECORD.md objects."""
    seats = state.waiting_on if seat is None else [s for s in state.waiting_on if s == seat]
    moves = []
    for s in seats:
        stage = state.stage
        if stage == OPEN:
            by_rank: dict[str, list] = {}
            for c in state.hands[s]:
                by_rank.setdefault(RANK[c], []).append(c)
            for cards in by_rank.values():
                for combo in _sub_multisets(cards, state.limit):
                    moves.append({"seat": s, "move": "challenge", "cards": combo})
        elif stage == RESPOND:
            for pairs in _reject_assignments(state):
                moves.append({"seat": s, "move": "reject", "pairs": pairs})
            moves.append({"seat": s, "move": "pass"})
        elif stage == EXTEND:
            room = state.limit - len(state.table_cards)
            for combo in _sub_multisets(state.addable(s), room):
                moves.append({"seat": s, "move": "add", "cards": combo})
            moves.append({"seat": s, "move": "done"})
        elif stage == BET:
            for on in range(state.n):
                if on != s:
                    moves.append({"seat": s, "move": "bet", "on": on, "value": 0})
                    moves.append({"seat": s, "move": "bet", "on": on, "value": 1})
    return moves


def legal_moves_of_view(view: dict, seat: int) -> list[dict]:
    """legal_moves(state, seat) from `seat`'s view alone (its hand and `options`): a
    client's own list, with no hidden card needed. Without `options` (the game does not
    wait on the seat) the list is empty."""
    opts = view.get("options")
    if not opts:
        return []
    hand = view["hand"]
    if "challenge" in opts:
        allowed = set(opts["challenge"])
        by_rank: dict[str, list] = {}
        for c in hand:
            if c in allowed:
                by_rank.setdefault(RANK[c], []).append(c)
        return [{"seat": seat, "move": "challenge", "cards": combo}
                for cards in by_rank.values() for combo in _sub_multisets(cards, opts["limit"])]
    if "reject" in opts:
        rejecters = {int(i): set(cards) for i, cards in opts["reject"].items()}
        moves = [{"seat": seat, "move": "reject", "pairs": pairs}
                 for pairs in _assignments(sorted(rejecters), sorted(hand), rejecters)]
        return moves + [{"seat": seat, "move": "pass"}]
    if "done" in opts:
        addable = set(opts.get("add", ()))
        room = opts.get("limit", 0) if addable else 0
        return [{"seat": seat, "move": "add", "cards": combo}
                for combo in _sub_multisets([c for c in hand if c in addable], room)
                ] + [{"seat": seat, "move": "done"}]
    if "bet" in opts:
        return [{"seat": seat, "move": "bet", "on": on, "value": v}
                for on in opts["bet"]["on"] for v in opts["bet"]["values"]]
    return []


def _assignments(targets: list, hand: list, rejecters: dict) -> list[list]:
    """Every distinct way to give each target index its own hand card among its
    `rejecters`, as _reject_assignments finds them."""
    found = set()

    def extend(k: int, used: tuple, pairs: tuple):
        if k == len(targets):
            found.add(pairs)
            return
        index = targets[k]
        tried = set()
        for i, card in enumerate(hand):
            if i in used or card in tried or card not in rejecters[index]:
                continue
            tried.add(card)
            extend(k + 1, used + (i,), pairs + ((index, card),))

    extend(0, (), ())
    return [[list(p) for p in pairs] for pairs in sorted(found)]


def options(state: State, seat: int) -> dict | None:
    """The API's per-seat hints of what `seat` may do now, or None if not waited on."""
    if seat is None or seat not in state.waiting_on:
        return None
    stage = state.stage
    hand = state.hands[seat]
    if stage == OPEN:
        return {"challenge": sorted(set(hand)), "limit": state.limit}
    if stage == RESPOND:
        trump = state.trump
        return {
            "reject": {
                str(i): sorted({r for r in hand if can_reject(c, r, trump)})
                for i, (c, rej) in enumerate(zip(state.table_cards, state.table_rejections))
                if rej is None
            },
            "pass": True,
        }
    if stage == EXTEND:
        room = state.limit - len(state.table_cards)
        result = {"done": True}
        if room > 0:
            result["add"] = sorted(set(state.addable(seat)))
            result["limit"] = room
        return result
    if stage == BET:
        return {"bet": {"on": [s for s in range(state.n) if s != seat], "values": [0, 1]}}
    return None


def random_move(state: State, rng) -> dict:
    """A random legal move of the first seat waited on; cheap, for simulations.

    Not uniform over all moves: it picks a kind of move first, so that random
    games end in a reasonable number of moves.
    """
    stage = state.stage
    seat = state.waiting_on[0]
    hand = state.hands[seat]
    if stage == OPEN:
        rank = RANK[hand[rng.randrange(len(hand))]]
        same = [c for c in hand if RANK[c] == rank]
        k = rng.randint(1, min(len(same), state.limit))
        return {"seat": seat, "move": "challenge", "cards": rng.sample(same, k)}
    if stage == RESPOND:
        if rng.random() < 0.1:
            return {"seat": seat, "move": "pass"}
        pairs = _random_rejection(state, hand, rng)
        return {"seat": seat, "move": "reject", "pairs": pairs}
    if stage == EXTEND:
        addable = state.addable(seat)
        room = state.limit - len(state.table_cards)
        if not addable or room <= 0 or rng.random() < 0.5:
            return {"seat": seat, "move": "done"}
        k = rng.randint(1, min(room, len(addable)))
        return {"seat": seat, "move": "add", "cards": rng.sample(addable, k)}
    on = rng.randrange(state.n - 1)
    return {"seat": seat, "move": "bet", "on": on + (on >= seat), "value": rng.randrange(2)}


def _random_rejection(state: State, hand: list, rng) -> list:
    trump = state.trump
    indices = [i for i, r in enumerate(state.table_rejections) if r is None]
    # A greedy random try usually works; fall back to a full matching.
    for _ in range(3):
        left = hand[:]
        pairs = []
        for i in indices:
            card = state.table_cards[i]
            fits = [r for r in left if can_reject(card, r, trump)]
            if not fits:
                break
            r = fits[rng.randrange(len(fits))]
            left.remove(r)
            pairs.append([i, r])
        else:
            return pairs
    choices = _reject_assignments(state)  # never empty: the target was not auto-passed
    return choices[rng.randrange(len(choices))]
