"""Determinizations: complete game states consistent with what one seat sees.

A bot receives only `view(state, seat)`. To search, it deals the cards it
cannot see at random into the places it cannot see into:

- unseen cards = the game's card set minus the seat's hand, the discard pile,
  the table, the cards publicly known to lie in other hands (picked up after a
  pass) and, while the deck holds cards, the trump card under it;
- the other hands get their publicly known cards plus unseen cards up to their
  sizes, the deck gets unseen cards with the trump card last;
- unseen cards left over are out of play: in round 1 the round-2 deck, in
  round 2 the round-1 cards put back in the box. [simplification] A seat could
  infer a little more in round 2 (which cards it saw in round 1); the bots do
  not remember round 1, so every unseen card is equally likely anywhere.
- when the deck is empty and no copy of the trump card is in sight, one copy is
  in another hand (it was drawn last), so one is dealt there first.

Other seats' bet values are not visible: a placed bet of unknown value is
sampled (value 1 with probability one half). In the bet stage the view does not
say who played the last challenge, which the engine needs to open phase 2; a
guess from public information is used (only searches that start in the bet
stage would see it, and the strong bot bets by rules of thumb).

Everything is computed from the view alone, in a fixed order, so the same view
and the same random generator give the same determinization.
"""

from collections import Counter

from games.engine.cards import CHALLENGE_VALUE, REJECT_VALUE, full_deck
from games.engine.state import BET, State


class Sampler:
    """Precomputed unseen cards and slots for one (view, seat); `sample(rng)` deals them."""

    def __init__(self, view: dict, seat: int):
        n = len(view["hand_sizes"])
        self.n, self.seat = n, seat
        hand = list(view["hand"])
        known = [list(k) for k in view["known"]]
        seen = Counter(hand)
        seen.update(view["discard"])
        for entry in view["table"]:
            seen[entry["card"]] += 1
            if entry["rejected_by"] is not None:
                seen[entry["rejected_by"]] += 1
        for s in range(n):
            if s != seat:
                seen.update(known[s])
        trump_card = view["trump_card"]
        deck_size = view["deck_size"]
        in_sight = seen[trump_card]
        if deck_size > 0:
            seen[trump_card] += 1
        pool = Counter(full_deck(n))
        pool.subtract(seen)
        if any(v < 0 for v in pool.values()):
            raise ValueError("the view shows more copies of a card than the game has")
        # the trump card was drawn last: some other hand holds a copy
        self.trump_in_hand = deck_size == 0 and in_sight == 0 and pool[trump_card] > 0
        if self.trump_in_hand:
            pool[trump_card] -= 1
        self.pool = sorted(pool.elements())
        self.known = known
        self.hand = hand
        self.slots = [
            0 if s == seat else view["hand_sizes"][s] - len(known[s]) for s in range(n)
        ]
        self.deck_unknown = max(deck_size - 1, 0)
        self.trump_card = trump_card
        self.deck_size = deck_size
        self.template = _template(view, seat, n)

    def sample(self, rng) -> State:
        """A fresh State consistent with the view, hidden cards dealt by `rng`."""
        pool = self.pool[:]
        rng.shuffle(pool)
        slots = self.slots
        state = self.template.clone()
        hands = [None] * self.n
        pos = 0
        extra = None
        if self.trump_in_hand:
            total = sum(slots)
            if total > 0:
                k = rng.randrange(total)
                for s, count in enumerate(slots):
                    if k < count:
                        extra = s
                        break
                    k -= count
        for s in range(self.n):
            if s == self.seat:
                hands[s] = self.hand[:]
                continue
            count = slots[s]
            if s == extra:
                hands[s] = self.known[s] + [self.trump_card] + pool[pos:pos + count - 1]
                pos += count - 1
            else:
                hands[s] = self.known[s] + pool[pos:pos + count]
                pos += count
        state.hands = hands
        if self.deck_size > 0:
            state.deck = pool[pos:pos + self.deck_unknown] + [self.trump_card]
        else:
            state.deck = [self.trump_card]  # drawn already
        state.deck_pos = 0 if self.deck_size > 0 else 1
        # bets of unknown value
        for s, bet in enumerate(state.bets):
            if bet is not None and bet[1] is None:
                state.bets[s] = (bet[0], rng.randrange(2))
            elif bet == "placed":
                on = rng.randrange(self.n - 1)
                state.bets[s] = (on + (on >= s), rng.randrange(2))
        return state


def _template(view: dict, seat: int, n: int) -> State:
    """A State with every public field of the view set (hands and deck come later)."""
    st = State(n)
    st.round = view["round"]
    st.trump_card = view["trump_card"]
    st.trump = view["trump"]
    st.stage = view["stage"]
    ch = view["challenge"]
    table = view["table"]
    st.t_cards = [e["card"] for e in table]
    st.t_by = [e["by"] for e in table]
    st.t_rej = [e["rejected_by"] for e in table]
    st.values = {CHALLENGE_VALUE[c] for c in st.t_cards}
    st.values.update(REJECT_VALUE[r] for r in st.t_rej if r is not None)
    st.unrejected = sum(1 for r in st.t_rej if r is None)
    if ch is not None:
        st.active, st.target, st.supporter = ch["active"], ch["target"], ch["supporter"]
        st.limit = ch["limit"]
        st.passed = ch["passed"]
        st.done_a = st.active in ch["done"]
        st.done_s = st.supporter is not None and st.supporter in ch["done"]
    else:
        st.active = st.target = 0
        st.supporter = None
        st.limit = 5
        st.passed = st.done_a = st.done_s = False
    st.out = list(view["out"])
    st.feather_stack = list(view["feather_stack"])
    st.feathers = [[list(f) for f in rf] for rf in view["round_feathers"]]
    taken = view["feathers"]
    st.bet_piles = [view["scores"][s] - sum(taken[s]) for s in range(n)]
    st.bet_history = [[(b["on"], b["value"]) for b in bets] for bets in view["past_bets"]]
    st.round_losers = list(view["round_losers"])
    st.discard = list(view["discard"])
    st.box = []
    st.known = [list(k) for k in view["known"]]
    bets = []
    for b in view["bets"]:
        if b is None:
            bets.append(None)
        elif "value" in b:
            bets.append((b["on"], b["value"]))
        elif "on" in b:
            bets.append((b["on"], None))
        else:
            bets.append("placed")
    st.bets = bets
    st.pending = None
    if st.stage == BET:
        # Not in the view: guess the last challenge from public facts. An empty
        # hand can only be its target.
        sizes = view["hand_sizes"]
        empty = [s for s in range(n) if sizes[s] == 0 and not st.out[s]]
        target = empty[0] if empty else max(range(n), key=lambda s: (sizes[s], -s))
        active = (target - 1) % n
        supporter = (target + 1) % n
        involved = (active, target) if supporter == active else (active, target, supporter)
        st.pending = (involved, target, False)
    st.hands = [[] for _ in range(n)]
    st.deck = []
    st.deck_pos = 0
    st.deals = []
    st.starts = []
    st.moves = [[] for _ in range(st.round)]
    st.next_deal = None
    return st


def determinize(view: dict, seat: int, rng) -> State:
    """A State consistent with `view` (what `seat` sees), hidden cards dealt by `rng`."""
    return Sampler(view, seat).sample(rng)
