# cython: annotation_typing=False
# (the compiled build takes its types from state.pxd, not from these annotations)
"""The state of a game of Blaze and the moves that change it (RULES.md, RECORD.md).

`State.apply(move)` takes a RECORD.md move object, checks it completely before
touching anything, applies it and then runs the automatic moves of §5.7, so a
state is always waiting on someone (or over). An illegal move raises
`IllegalMove` with a sentence a person can act on and leaves the state as it was.
"""

from .cards import (
    CARD_SET,
    CHALLENGE_VALUE,
    FEATHERS,
    HAND_SIZE,
    MAX_LIMIT,
    RANK,
    REJECT_VALUE,
    REJECTERS,
    SUIT,
)
from .words import Sentence
from .words import gettext_noop as N_  # a marker: makemessages collects N_("…")

OPEN, RESPOND, EXTEND, BET, OVER = "open", "respond", "extend", "bet", "over"

STAGE_NEEDS = {
    OPEN: N_("the active player must open a challenge"),
    RESPOND: N_("the target must reject every card or pass"),
    EXTEND: N_("the attackers may add cards or be done"),
    BET: N_("every player must place a bet first"),
}
#: MOVES[kind]: (the move's fields, the stage it is played in); one lookup per move
MOVES = {
    "challenge": (frozenset(("seat", "move", "cards")), OPEN),
    "reject": (frozenset(("seat", "move", "pairs")), RESPOND),
    "pass": (frozenset(("seat", "move")), RESPOND),
    "add": (frozenset(("seat", "move", "cards")), EXTEND),
    "done": (frozenset(("seat", "move")), EXTEND),
    "bet": (frozenset(("seat", "move", "on", "value")), BET),
}


class IllegalMove(ValueError):
    """A move the rules do not allow now; the state is unchanged. `sentence` keeps the
    template and its values, for the web layer to say it in the player's language."""

    def __init__(self, template: str, **params):
        self.sentence = Sentence(template, **params)
        super().__init__(str(self.sentence))


def _is_int(value) -> bool:
    return type(value) is int  # bool and float are not integers here


def _take(hand: list, cards: list, seat: int) -> None:
    """Check that `cards` is a sub-multiset of `hand` (no change)."""
    if len(cards) == 1:
        if cards[0] not in hand:
            raise IllegalMove(N_("seat {seat} does not hold {card}"), seat=seat, card=cards[0])
        return
    for card in set(cards):
        if cards.count(card) > hand.count(card):
            held = hand.count(card)
            if not held:
                raise IllegalMove(N_("seat {seat} does not hold {card}"), seat=seat, card=card)
            raise IllegalMove(N_("seat {seat} holds {held} {card} but plays {played}"),
                              seat=seat, held=held, card=card, played=cards.count(card))


def _check_cards(cards, seat: int, kind: str) -> None:
    if type(cards) is not list or not cards:
        raise IllegalMove(N_("seat {seat} cannot {kind}: 'cards' must be a non-empty list of "
                             "cards"), seat=seat, kind=kind)
    for card in cards:
        if type(card) is not str or card not in CARD_SET:
            raise IllegalMove(N_("seat {seat} cannot {kind}: {card!r} is not a card"),
                              seat=seat, kind=kind, card=card)


def can_reject_all(unrejected: list, hand: list, trump: str) -> bool:
    """Whether distinct hand cards can reject every card of `unrejected` (a matching)."""
    if len(unrejected) > len(hand):
        return False
    options = []
    rejecters = REJECTERS[trump]
    for c in unrejected:
        fits = rejecters[c]
        opts = [i for i, r in enumerate(hand) if r in fits]
        if not opts:
            return False
        options.append(opts)
    if len(options) == 1:
        return True
    options.sort(key=len)
    owner: dict[int, int] = {}
    for k in range(len(options)):  # a loop, not all(…): no generator to compile
        if not augment(options, owner, k, set()):
            return False
    return True


def augment(options: list, owner: dict, k: int, seen: set) -> bool:
    """An augmenting path for card k of can_reject_all's matching (`owner`: hand card ->
    the card it rejects). A function of its own, not a closure: a closure that calls
    itself is a reference cycle, garbage only the collector frees, at every call."""
    for i in options[k]:
        if i in seen:
            continue
        seen.add(i)
        if i not in owner or augment(options, owner, owner[i], seen):
            owner[i] = k
            return True
    return False


class State:
    """A game in progress: both rounds' deals, the position, and the moves so far."""

    __slots__ = (
        "n", "round", "hands", "deck", "deck_pos", "trump_card", "trump", "stage",
        "active", "target", "supporter", "limit", "passed", "active_done", "supporter_done",
        "table_cards", "table_played_by", "table_rejections", "values", "unrejected",
        "out", "feather_stack", "feathers", "bets", "bet_piles", "bet_history",
        "round_losers", "discard", "box", "known", "pending", "deals", "moves",
        "starts", "next_deal",
    )

    def __init__(self, players: int):
        if players not in FEATHERS:
            raise ValueError("Blaze is played by 3 to 5 players")
        self.n = players
        self.round = 0
        self.feathers = []  # per round, per seat: feather values taken
        self.bet_piles = [0] * players
        self.bet_history = []  # per scored round, per seat: (on, value)
        self.round_losers = []
        self.deals = []  # per round: (hands, deck) as dealt
        self.moves = []  # per round: the voluntary moves applied
        self.starts = []
        self.next_deal = None  # round 2's deal when known in advance (live games)

    # ---- rounds -------------------------------------------------------------

    def begin_round(self, hands: list, deck: list, start: int) -> None:
        """Start the next round with this deal; `start` opens its first challenge."""
        n = self.n
        self.round += 1
        # deals and starts are shared by clones, so they are replaced, never mutated
        self.deals = [*self.deals, ([list(h) for h in hands], list(deck))]
        self.starts = [*self.starts, start]
        self.moves.append([])
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)
        self.deck_pos = 0
        self.trump_card = deck[-1]
        self.trump = SUIT[deck[-1]]
        self.out = [False] * n
        self.feather_stack = list(FEATHERS[n][self.round - 1])
        self.feathers.append([[] for _ in range(n)])
        self.bets = [None] * n
        self.discard = []
        self.known = [[] for _ in range(n)]
        self.pending = None
        self.box = []
        if self.round == 2:
            # round 1's cards not dealt again go back to the box
            first_hands, first_deck = self.deals[0]
            self.box = [c for h in first_hands for c in h] + first_deck
            for c in (c for h in hands for c in h):
                self.box.remove(c)
        self.table_cards, self.table_played_by, self.table_rejections = [], [], []
        self._open(start)

    def _open(self, active: int) -> None:
        out, n = self.out, self.n
        target = (active + 1) % n
        while out[target]:
            target = (target + 1) % n
        supporter = (target + 1) % n
        while out[supporter]:
            supporter = (supporter + 1) % n
        self.active = active
        self.target = target
        self.supporter = None if supporter == active else supporter
        self.limit = min(MAX_LIMIT, len(self.hands[target]))
        self.passed = self.active_done = self.supporter_done = False
        # the table is empty already: begin_round and _resolve leave it so
        self.values = set()
        self.unrejected = 0
        self.stage = OPEN

    # ---- queries ------------------------------------------------------------

    @property
    def phase(self) -> int:
        return 1 if self.deck_pos < len(self.deck) else 2

    @property
    def deck_size(self) -> int:
        return len(self.deck) - self.deck_pos

    @property
    def waiting_on(self) -> list:
        stage = self.stage
        if stage == OPEN:
            return [self.active]
        if stage == RESPOND:
            return [self.target]
        if stage == EXTEND:
            return [self.supporter if self.active_done else self.active]
        if stage == BET:
            return [s for s in range(self.n) if self.bets[s] is None]
        return []

    @property
    def finished(self) -> bool:
        return len(self.round_losers) == 2

    @property
    def scores(self) -> list:
        return [
            self.bet_piles[s] + sum(sum(rf[s]) for rf in self.feathers) for s in range(self.n)
        ]

    @property
    def ranking(self):
        if not self.finished:
            return None
        scores, last = self.scores, self.feathers[1]
        return sorted(range(self.n), key=lambda s: (-scores[s], -(last[s][0] if last[s] else 0)))

    def feathers_taken(self) -> list:
        return [[v for rf in self.feathers for v in rf[s]] for s in range(self.n)]

    def unrejected_cards(self) -> list:
        return [c for c, r in zip(self.table_cards, self.table_rejections) if r is None]

    def addable(self, seat: int) -> list:
        """Hand cards of `seat` whose challenge value lies on the table (limit aside)."""
        values = self.values
        return [c for c in self.hands[seat] if CHALLENGE_VALUE[c] in values]

    # ---- moves --------------------------------------------------------------

    def apply(self, move) -> None:
        """Check and apply one voluntary move, then the automatic ones."""
        if type(move) is not dict:
            raise IllegalMove(N_("a move must be a JSON object"))
        kind = move.get("move")
        spec = MOVES.get(kind) if type(kind) is str else None
        if spec is None:
            raise IllegalMove(N_("unknown move {kind!r}"), kind=kind)
        fields, needed = spec
        if move.keys() != fields:
            extra = sorted(set(move) - fields)
            missing = sorted(fields - set(move))
            if extra:
                raise IllegalMove(N_("{kind} has unknown field {field!r}"),
                                  kind=kind, field=extra[0])
            raise IllegalMove(N_("{kind} is missing the field {field!r}"),
                              kind=kind, field=missing[0])
        seat = move["seat"]
        if type(seat) is not int or not 0 <= seat < self.n:
            raise IllegalMove(N_("seat must be an integer from 0 to {last}, not {seat!r}"),
                              last=self.n - 1, seat=seat)
        stage = self.stage
        if stage != needed:
            if stage == OVER:
                raise IllegalMove(N_("seat {seat} cannot {kind}: the round is over"),
                                  seat=seat, kind=kind)
            raise IllegalMove(N_("seat {seat} cannot {kind} now: {needs}"),
                              seat=seat, kind=kind, needs=STAGE_NEEDS[stage])
        # dispatch on the stage, which also names the seat waited on (direct calls compile
        # to C calls in the compiled build)
        if stage == OPEN:
            if seat != self.active:
                self._not_waited_on(seat, kind)
            self._challenge(seat, move)
        elif stage == RESPOND:
            if seat != self.target:
                self._not_waited_on(seat, kind)
            if kind == "reject":
                self._reject(seat, move)
            else:
                self.passed = True
                self.stage = EXTEND
        elif stage == EXTEND:
            if seat != (self.supporter if self.active_done else self.active):
                self._not_waited_on(seat, kind)
            if kind == "add":
                self._add(seat, move)
            elif self.active_done:
                self.supporter_done = True
            else:
                self.active_done = True
        else:
            if self.bets[seat] is not None:
                self._not_waited_on(seat, kind)
            self._bet(seat, move)
        self.moves[-1].append(move)
        self._settle()

    def _not_waited_on(self, seat: int, kind: str) -> None:
        who = ", ".join(map(str, self.waiting_on))
        raise IllegalMove(N_("seat {seat} cannot {kind}: the game waits on seat {who}"),
                          seat=seat, kind=kind, who=who)

    def _challenge(self, seat: int, move: dict) -> None:
        cards = move["cards"]
        _check_cards(cards, seat, "challenge")
        rank = RANK[cards[0]]
        for c in cards:
            if RANK[c] != rank:
                raise IllegalMove(N_("seat {seat} cannot challenge with {cards}: the cards "
                                     "must have the same rank"), seat=seat, cards=" ".join(cards))
        if len(cards) > self.limit:
            raise IllegalMove(N_("seat {seat} cannot challenge with {count} cards: the limit "
                                 "is {limit}"), seat=seat, count=len(cards), limit=self.limit)
        _take(self.hands[seat], cards, seat)
        self._play(seat, cards)
        self.stage = RESPOND

    def _play(self, seat: int, cards: list) -> None:
        hand, known, values = self.hands[seat], self.known[seat], self.values
        for c in cards:
            hand.remove(c)
            if known and c in known:
                known.remove(c)
            values.add(CHALLENGE_VALUE[c])
        k = len(cards)
        self.table_cards += cards
        self.table_played_by += [seat] * k
        self.table_rejections += [None] * k
        self.unrejected += k
        self.active_done = self.supporter_done = False

    def _add(self, seat: int, move: dict) -> None:
        cards = move["cards"]
        _check_cards(cards, seat, "add")
        values = self.values
        for c in cards:
            if CHALLENGE_VALUE[c] not in values:
                reason = (N_("no Firebird challenge card on the table") if RANK[c] == "F"
                          else Sentence(N_("no card of value {value} on the table"),
                                        value=CHALLENGE_VALUE[c]))
                raise IllegalMove(N_("seat {seat} cannot add {card}: {reason}"),
                                  seat=seat, card=c, reason=reason)
        room = self.limit - len(self.table_cards)
        if len(cards) > room:
            raise IllegalMove(N_("seat {seat} cannot add {count} cards: only {room} more fit "
                                 "under the limit of {limit}"),
                              seat=seat, count=len(cards), room=room, limit=self.limit)
        _take(self.hands[seat], cards, seat)
        self._play(seat, cards)
        self.stage = EXTEND if self.passed else RESPOND

    def _reject(self, seat: int, move: dict) -> None:
        pairs = move["pairs"]
        if type(pairs) is not list or not pairs:
            raise IllegalMove(N_("seat {seat} cannot reject: 'pairs' must be a non-empty list"),
                              seat=seat)
        table_cards, table_rejections = self.table_cards, self.table_rejections
        rejecters = REJECTERS[self.trump]
        seen = set()
        cards = []
        for pair in pairs:
            if type(pair) is not list or len(pair) != 2:
                raise IllegalMove(N_("seat {seat} cannot reject: each pair must be [index, card]"),
                                  seat=seat)
            index, card = pair
            if type(index) is not int or not 0 <= index < len(table_cards):
                raise IllegalMove(N_("seat {seat} cannot reject: no challenge card at index "
                                     "{index!r}"), seat=seat, index=index)
            if type(card) is not str or card not in CARD_SET:
                raise IllegalMove(N_("seat {seat} cannot reject: {card!r} is not a card"),
                                  seat=seat, card=card)
            if index in seen:
                raise IllegalMove(N_("seat {seat} cannot reject: index {index} appears twice"),
                                  seat=seat, index=index)
            if table_rejections[index] is not None:
                raise IllegalMove(N_("seat {seat} cannot reject: {card} at index {index} is "
                                     "already rejected"), seat=seat, card=table_cards[index],
                                  index=index)
            if card not in rejecters[table_cards[index]]:
                raise IllegalMove(N_("seat {seat} cannot reject {card} with {rejection}"),
                                  seat=seat, card=table_cards[index], rejection=card)
            seen.add(index)
            cards.append(card)
        if len(seen) != self.unrejected:
            missing = [i for i, r in enumerate(table_rejections) if r is None and i not in seen]
            raise IllegalMove(N_("seat {seat} must reject every unrejected card at once: index "
                                 "{index} ({card}) is missing"),
                              seat=seat, index=missing[0], card=table_cards[missing[0]])
        hand = self.hands[seat]
        _take(hand, cards, seat)
        known = self.known[seat]
        for index, card in pairs:
            hand.remove(card)
            if known and card in known:
                known.remove(card)
            table_rejections[index] = card
            self.values.add(REJECT_VALUE[card])
        self.unrejected = 0
        self.stage = EXTEND

    def _bet(self, seat: int, move: dict) -> None:
        on, value = move["on"], move["value"]
        if not _is_int(on) or not 0 <= on < self.n:
            raise IllegalMove(N_("seat {seat} cannot bet on {on!r}: not a seat"), seat=seat, on=on)
        if on == seat:
            raise IllegalMove(N_("seat {seat} cannot bet on themself"), seat=seat)
        if not _is_int(value) or value not in (0, 1):
            raise IllegalMove(N_("seat {seat} cannot bet {value!r}: a bet is worth 0 or 1"),
                              seat=seat, value=value)
        self.bets[seat] = (on, value)
        if None not in self.bets:
            self._start_phase_two()

    # ---- automatic moves and resolution -------------------------------------

    def _settle(self) -> None:
        """Apply the automatic moves of §5.7 until the game waits on someone."""
        while True:
            stage = self.stage
            if stage == RESPOND:
                if self.unrejected == 1:
                    card = self.table_cards[self.table_rejections.index(None)]
                    if not REJECTERS[self.trump][card].isdisjoint(self.hands[self.target]):
                        return
                elif self._target_can_reject():
                    return
                self.passed = True
                self.stage = stage = EXTEND
            elif stage != EXTEND:
                return
            # whether the attackers can add, inlined: this loop runs after every move
            if len(self.table_cards) < self.limit:
                values = self.values
                if not self.active_done:
                    for c in self.hands[self.active]:
                        if CHALLENGE_VALUE[c] in values:
                            return
                    self.active_done = True
                supporter = self.supporter
                if supporter is not None and not self.supporter_done:
                    for c in self.hands[supporter]:
                        if CHALLENGE_VALUE[c] in values:
                            return
                    self.supporter_done = True
            else:
                self.active_done = True
                if self.supporter is not None:
                    self.supporter_done = True
            self._resolve()

    def _target_can_reject(self) -> bool:
        hand, trump = self.hands[self.target], self.trump
        if self.unrejected == 1:
            card = self.table_cards[self.table_rejections.index(None)]
            return not REJECTERS[trump][card].isdisjoint(hand)
        return can_reject_all(self.unrejected_cards(), hand, trump)

    def _resolve(self) -> None:
        active, target, supporter = self.active, self.target, self.supporter
        cards = self.table_cards + [r for r in self.table_rejections if r is not None]
        if self.passed:
            self.hands[target].extend(cards)
            self.known[target].extend(cards)
        else:
            self.discard.extend(cards)
        self.table_cards, self.table_played_by, self.table_rejections = [], [], []
        involved = (active, target) if supporter is None else (active, target, supporter)
        deck = self.deck
        if self.deck_pos < len(deck):
            for seat in involved:
                hand = self.hands[seat]
                need = HAND_SIZE - len(hand)
                if need > 0:
                    got = deck[self.deck_pos:self.deck_pos + need]
                    hand.extend(got)
                    self.deck_pos += len(got)
                    if self.deck_pos >= len(deck):
                        break
            if self.deck_pos >= len(deck):
                self.pending = (involved, target, self.passed)
                self.stage = BET
                return
        else:
            for seat in involved:
                if not self.hands[seat] and self._take_feather(seat):
                    return
        self._next_challenge(target, self.passed)

    def _take_feather(self, seat: int) -> bool:
        """Give `seat` the top feather; true when that ended the round."""
        self.feathers[-1][seat].append(self.feather_stack.pop(0))
        self.out[seat] = True
        if not self.feather_stack:
            self._end_round()
            return True
        return False

    def _next_challenge(self, target: int, passed: bool) -> None:
        n, out = self.n, self.out
        seat = (target + 1) % n if passed else target
        while out[seat] or (passed and seat == target):
            seat = (seat + 1) % n
        self._open(seat)

    def _start_phase_two(self) -> None:
        involved, target, passed = self.pending
        self.pending = None
        first = involved[0]
        for k in range(self.n):
            seat = (first + k) % self.n
            if not self.hands[seat] and not self.out[seat] and self._take_feather(seat):
                return
        self._next_challenge(target, passed)

    def _end_round(self) -> None:
        self.stage = OVER
        taken = self.feathers[-1]
        loser = next(s for s in range(self.n) if not taken[s])
        self.round_losers.append(loser)
        for seat, (on, value) in enumerate(self.bets):
            self.bet_piles[seat if on == loser else on] += value
        self.bet_history.append(list(self.bets))
        if self.round == 1 and self.next_deal is not None:
            hands, deck = self.next_deal
            self.next_deal = None
            self.begin_round(hands, deck, loser)

    # ---- hidden cards (searches over what a seat cannot see) -------------------

    def deal_hidden(self, hands: list, deck: list, bets: list) -> None:
        """Complete a state from `position.state_from_view` with what the view hides:
        every hand, the cards still to draw in order (the trump card last; empty once it
        was drawn) and every bet as (on, value) or None."""
        self.hands = hands
        if deck:
            self.deck, self.deck_pos = deck, 0
        else:
            self.deck, self.deck_pos = [self.trump_card], 1  # drawn already
        self.bets = bets

    # ---- copies -------------------------------------------------------------

    def clone(self) -> "State":
        """An independent copy, cheap enough for bots that search many games."""
        new = State.__new__(State)
        new.n, new.round, new.stage = self.n, self.round, self.stage
        new.deck, new.deck_pos = self.deck, self.deck_pos
        new.trump_card, new.trump = self.trump_card, self.trump
        new.active, new.target, new.supporter = self.active, self.target, self.supporter
        new.limit, new.passed, new.unrejected = self.limit, self.passed, self.unrejected
        new.active_done, new.supporter_done = self.active_done, self.supporter_done
        new.pending, new.next_deal = self.pending, self.next_deal
        new.deals, new.starts = self.deals, self.starts
        new.hands = [h[:] for h in self.hands]
        new.table_cards = self.table_cards[:]
        new.table_played_by = self.table_played_by[:]
        new.table_rejections = self.table_rejections[:]
        new.values = set(self.values)
        new.out = self.out[:]
        new.feather_stack = self.feather_stack[:]
        new.feathers = [[f[:] for f in rf] for rf in self.feathers]
        new.bets = self.bets[:]
        new.bet_piles = self.bet_piles[:]
        new.bet_history = self.bet_history[:]
        new.round_losers = self.round_losers[:]
        new.discard = self.discard[:]
        new.box = self.box
        new.known = [k[:] for k in self.known]
        new.moves = [m[:] for m in self.moves]
        return new

