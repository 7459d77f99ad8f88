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

from games.engine.cards import full_deck
from games.engine.fast import CODE, FastState
from games.engine.position import state_from_view
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
        hidden = sum(self.slots)
        # cards of the pool dealt: hidden hand cards (one may be the drawn trump card) and
        # the deck
        self.dealt = (hidden - (self.trump_in_hand and hidden > 0)
                      + (self.deck_unknown if deck_size else 0))
        self.trump_card = trump_card
        self.deck_size = deck_size
        self.bets = view["bets"]
        # no bet to guess: the same list every time (None when one must be sampled)
        self.bets_known = (None if any(b is not None and "value" not in b for b in self.bets)
                           else [None if b is None else (b["on"], b["value"])
                                 for b in self.bets])
        self.template = state_from_view(view, last_challenge=_last_challenge_guess(view, n))
        self.fast_template = None

    def _deal(self, rng, pool, hand, known, trump_card):
        """Hidden hands, deck and bets dealt by `rng`, in the representation of `pool`."""
        pool = pool[:]
        # Fisher-Yates on rng.random() (a few times cheaper than rng.shuffle's randbelow),
        # stopped once the cards dealt are drawn: the rest stay out of play
        random_ = rng.random
        size = len(pool)
        for i in range(min(self.dealt, size - 1)):
            j = i + int(random_() * (size - i))
            pool[i], pool[j] = pool[j], pool[i]
        slots = self.slots
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
                hands[s] = hand[:]
                continue
            count = slots[s]
            if s == extra:
                hands[s] = known[s] + [trump_card] + pool[pos:pos + count - 1]
                pos += count - 1
            else:
                hands[s] = known[s] + pool[pos:pos + count]
                pos += count
        deck = pool[pos:pos + self.deck_unknown] + [trump_card] if self.deck_size else []
        # bets of unknown value
        if self.bets_known:
            return hands, deck, self.bets_known[:]
        bets = []
        for s, bet in enumerate(self.bets):
            if bet is None:
                bets.append(None)
            elif "value" in bet:
                bets.append((bet["on"], bet["value"]))
            elif "on" in bet:
                bets.append((bet["on"], rng.randrange(2)))
            else:
                on = rng.randrange(self.n - 1)
                bets.append((on + (on >= s), rng.randrange(2)))
        return hands, deck, bets

    def sample(self, rng) -> State:
        """A fresh State consistent with the view, hidden cards dealt by `rng`."""
        hands, deck, bets = self._deal(rng, self.pool, self.hand, self.known, self.trump_card)
        state = self.template.clone()
        state.deal_hidden(hands, deck, bets)
        return state

    def sample_fast(self, rng) -> FastState:
        """The same as `sample`, as a compact `FastState` for playouts."""
        if self.fast_template is None:
            self.fast_template = FastState.from_state(self.template)
            self.fast_pool = [CODE[c] for c in self.pool]
            self.fast_hand = [CODE[c] for c in self.hand]
            self.fast_known = [[CODE[c] for c in k] for k in self.known]
        trump_card = self.fast_template.trump_card
        hands, deck, bets = self._deal(rng, self.fast_pool, self.fast_hand, self.fast_known,
                                       trump_card)
        if deck:
            return self.fast_template.redeal(hands, deck, 0, bets)
        return self.fast_template.redeal(hands, [trump_card], 1, bets)  # drawn already


def _last_challenge_guess(view: dict, n: int) -> tuple | None:
    """In the bet stage the view does not say who played the last challenge, which the
    engine needs to open phase 2: a guess from public facts (an empty hand can only be
    its target)."""
    if view["stage"] != BET:
        return None
    sizes = view["hand_sizes"]
    empty = [s for s in range(n) if sizes[s] == 0 and not view["out"][s]]
    target = empty[0] if empty else max(range(n), key=lambda s: (sizes[s], -s))
    active = (target - 1) % n
    supporter = (target + 1) % n
    involved = (active, target) if supporter == active else (active, target, supporter)
    return (involved, target, False)


def determinize(view: dict, seat: int, rng) -> State:
    """A State consistent with `view` (what `seat` sees), hidden cards dealt by `rng`."""
    return Sampler(view, seat).sample(rng)
