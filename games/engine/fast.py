"""A compact copy of the rules for searches: cards as small integers, moves as tuples, no checks.

`state.State` stays the reference (records, the web app, every check and sentence);
this module plays the same rules several times faster for the bots' playouts, on
moves already known to be legal. tests/engine/test_fast_conformance.py replays games
through both and compares them after every move.

Cards: `code = suit * 10 + rank`, suits in the order B, R, Y and ranks 1..9, F, so
codes sort like the card strings. Moves: `(kind, seat, arg)` with `arg` a tuple of
cards (challenge, add), a tuple of `(index, card)` pairs (reject), `(on, value)`
(bet) or None. Tuples are hashable: a search can use them as keys.
"""

from .cards import FEATHERS, HAND_SIZE, MAX_LIMIT
from .state import augment

SUIT_LETTERS = "BRY"
RANK_LETTERS = "123456789F"
CARD_OF = tuple(s + r for s in SUIT_LETTERS for r in RANK_LETTERS)
CODE = {c: i for i, c in enumerate(CARD_OF)}
SUIT_CODE = {s: i for i, s in enumerate(SUIT_LETTERS)}
SUIT_OF = tuple(i // 10 for i in range(30))
RANK_OF = tuple(i % 10 for i in range(30))
CV = tuple(10 if i % 10 == 9 else i % 10 + 1 for i in range(30))  # challenge value
RV = tuple(0 if i % 10 == 9 else i % 10 + 1 for i in range(30))  # rejection value
CV_BIT = tuple(1 << v for v in CV)
RV_BIT = tuple(1 << v for v in RV)


def _rejects(c: int, r: int, t: int) -> bool:
    if SUIT_OF[c] == t:
        return SUIT_OF[r] == t and RV[r] >= CV[c]
    if SUIT_OF[r] == t:
        return True
    return SUIT_OF[r] == SUIT_OF[c] and RV[r] >= CV[c]


#: SEATS[seat][k]: k times the seat; UNREJECTED[k]: k unrejected table slots
SEATS = tuple(tuple((s,) * k for k in range(MAX_LIMIT + 1)) for s in range(5))
UNREJECTED = tuple((-1,) * k for k in range(MAX_LIMIT + 1))

#: REJ[trump][c]: bit r set when card r rejects challenge card c
REJ = tuple(
    tuple(sum(1 << r for r in range(30) if _rejects(c, r, t)) for c in range(30))
    for t in range(3)
)

OPEN, RESPOND, EXTEND, BET, OVER = 0, 1, 2, 3, 4
STAGE_NAMES = ("open", "respond", "extend", "bet", "over")
STAGE_CODE = {name: i for i, name in enumerate(STAGE_NAMES)}
CHALLENGE, REJECT, PASS, ADD, DONE, PLACE = 0, 1, 2, 3, 4, 5
KIND_NAMES = ("challenge", "reject", "pass", "add", "done", "bet")
KIND_CODE = {name: i for i, name in enumerate(KIND_NAMES)}


def encode_move(move: dict) -> tuple:
    """A RECORD.md move object as a fast move tuple, cards and pairs in their order."""
    kind = KIND_CODE[move["move"]]
    seat = move["seat"]
    if kind in (CHALLENGE, ADD):
        return (kind, seat, tuple(CODE[c] for c in move["cards"]))
    if kind == REJECT:
        return (kind, seat, tuple((i, CODE[c]) for i, c in move["pairs"]))
    if kind == PLACE:
        return (kind, seat, (move["on"], move["value"]))
    return (kind, seat, None)


def decode_move(m: tuple) -> dict:
    """A fast move tuple as a RECORD.md move object."""
    kind, seat, arg = m
    name = KIND_NAMES[kind]
    if kind in (CHALLENGE, ADD):
        return {"seat": seat, "move": name, "cards": [CARD_OF[c] for c in arg]}
    if kind == REJECT:
        return {"seat": seat, "move": name, "pairs": [[i, CARD_OF[c]] for i, c in arg]}
    if kind == PLACE:
        return {"seat": seat, "move": name, "on": arg[0], "value": arg[1]}
    return {"seat": seat, "move": name}


def _codes(cards) -> list:
    return [CODE[c] for c in cards]


class FastState:
    """The position of a game for searches; see the module docstring."""

    __slots__ = (
        "n", "round", "hands", "deck", "deck_pos", "trump", "trump_card", "stage",
        "active", "target", "supporter", "limit", "passed", "active_done", "supporter_done",
        "tc", "tb", "tr", "values", "unrejected", "out", "stack", "fscore", "last",
        "bets", "bet_piles", "losers", "pending", "next_deal", "discard",
    )

    @classmethod
    def from_state(cls, st) -> "FastState":
        """The same position as a reference `State` (hands, deck, table, scores, bets)."""
        f = cls.__new__(cls)
        n = f.n = st.n
        f.round = st.round
        f.hands = [_codes(h) for h in st.hands]
        f.deck = _codes(st.deck)
        f.deck_pos = st.deck_pos
        f.trump_card = CODE[st.trump_card]
        f.trump = SUIT_CODE[st.trump]
        f.stage = STAGE_CODE[st.stage]
        f.active, f.target = st.active, st.target
        f.supporter = -1 if st.supporter is None else st.supporter
        f.limit, f.passed = st.limit, st.passed
        f.active_done, f.supporter_done = st.active_done, st.supporter_done
        f.tc = _codes(st.table_cards)
        f.tb = list(st.table_played_by)
        f.tr = [-1 if r is None else CODE[r] for r in st.table_rejections]
        values = 0
        for v in st.values:
            values |= 1 << v
        f.values = values
        f.unrejected = st.unrejected
        f.out = list(st.out)
        f.stack = list(st.feather_stack)
        f.fscore = [sum(sum(rf[s]) for rf in st.feathers) for s in range(n)]
        f.last = ([rf[0] if rf else 0 for rf in st.feathers[1]] if len(st.feathers) > 1
                  else [0] * n)
        f.bets = [b if b is None or type(b) is tuple else None for b in st.bets]
        f.bet_piles = list(st.bet_piles)
        f.losers = len(st.round_losers)
        f.pending = st.pending
        f.next_deal = (None if st.next_deal is None else
                       ([_codes(h) for h in st.next_deal[0]], _codes(st.next_deal[1])))
        f.discard = _codes(st.discard)
        return f

    def clone(self) -> "FastState":
        return self.redeal([h[:] for h in self.hands], self.deck, self.deck_pos, self.bets[:])

    def redeal(self, hands: list, deck: list, deck_pos: int, bets: list) -> "FastState":
        """A copy with these hands, deck and bets (taken, not copied): a determinization."""
        new = FastState.__new__(FastState)
        (new.n, new.round, new.trump, new.trump_card, new.stage,
         new.active, new.target, new.supporter, new.limit, new.passed, new.active_done,
         new.supporter_done, new.values, new.unrejected, new.losers, new.pending,
         new.next_deal) = (
            self.n, self.round, self.trump, self.trump_card,
            self.stage, self.active, self.target, self.supporter, self.limit, self.passed,
            self.active_done, self.supporter_done, self.values, self.unrejected, self.losers,
            self.pending, self.next_deal)
        new.hands, new.deck, new.deck_pos, new.bets = hands, deck, deck_pos, bets
        new.tc, new.tb, new.tr = self.tc[:], self.tb[:], self.tr[:]
        new.out, new.stack = self.out[:], self.stack[:]
        new.fscore, new.last = self.fscore[:], self.last[:]
        new.bet_piles = self.bet_piles[:]
        new.discard = self.discard[:]
        return new

    # ---- queries ------------------------------------------------------------

    def mover(self) -> int:
        """The first seat the game waits on (-1 when the round is over)."""
        stage = self.stage
        if stage == OPEN:
            return self.active
        if stage == RESPOND:
            return self.target
        if stage == EXTEND:
            return self.supporter if self.active_done else self.active
        if stage == BET:
            return self.bets.index(None)
        return -1

    def waiting_on(self) -> list:
        if self.stage == BET:
            return [s for s in range(self.n) if self.bets[s] is None]
        return [] if self.stage == OVER else [self.mover()]

    @property
    def finished(self) -> bool:
        return self.losers == 2

    def scores(self) -> list:
        return [self.bet_piles[s] + self.fscore[s] for s in range(self.n)]

    def ranking(self):
        if self.losers != 2:
            return None
        scores, last = self.scores(), self.last
        return sorted(range(self.n), key=lambda s: (-scores[s], -last[s]))

    def addable(self, seat: int) -> list:
        values = self.values
        return [c for c in self.hands[seat] if values >> CV[c] & 1]

    # ---- moves (unchecked) --------------------------------------------------

    def begin_round(self, hands: list, deck: list, start: int) -> None:
        n = self.n
        self.round += 1
        self.hands = [list(h) for h in hands]
        self.deck = list(deck)
        self.deck_pos = 0
        self.trump_card = deck[-1]
        self.trump = SUIT_OF[deck[-1]]
        self.out = [False] * n
        self.stack = list(FEATHERS[n][self.round - 1])
        self.bets = [None] * n
        self.discard = []
        self.pending = None
        self._open(start)

    def apply(self, m: tuple) -> None:
        """Apply one legal move (not checked), then the automatic moves of RULES.md §5.7."""
        kind, seat, arg = m
        if kind == CHALLENGE:
            self._play(seat, arg)
            self.stage = RESPOND
        elif kind == REJECT:
            hand, tr = self.hands[seat], self.tr
            values = self.values
            for i, c in arg:
                hand.remove(c)
                tr[i] = c
                values |= RV_BIT[c]
            self.values = values
            self.unrejected = 0
            self.stage = EXTEND
        elif kind == PASS:
            self.passed = True
            self.stage = EXTEND
        elif kind == ADD:
            self._play(seat, arg)
            self.stage = EXTEND if self.passed else RESPOND
        elif kind == DONE:
            if seat == self.active and not self.active_done:
                self.active_done = True
            else:
                self.supporter_done = True
        else:
            self.bets[seat] = arg
            if None not in self.bets:
                self._start_phase_two()
                return
            return
        self._settle()

    def _play(self, seat: int, cards) -> None:
        hand = self.hands[seat]
        values = self.values
        for c in cards:
            hand.remove(c)
            values |= CV_BIT[c]
        self.values = values
        k = len(cards)
        self.tc += cards
        self.tb += SEATS[seat][k]
        self.tr += UNREJECTED[k]
        self.unrejected += k
        self.active_done = self.supporter_done = False

    def _settle(self) -> None:
        # whether the target can reject and the attackers add, inlined: the searches'
        # hottest loop
        while True:
            stage = self.stage
            if stage == RESPOND:
                hand = self.hands[self.target]
                if self.unrejected == 1:
                    bits = REJ[self.trump][self.tc[self.tr.index(-1)]]
                    for r in hand:
                        if bits >> r & 1:
                            return
                elif can_reject_all([c for c, r in zip(self.tc, self.tr) if r < 0], hand,
                                    REJ[self.trump]):
                    return
                self.passed = True
                self.stage = stage = EXTEND
            elif stage != EXTEND:
                return
            if len(self.tc) < self.limit:
                values = self.values
                if not self.active_done:
                    for c in self.hands[self.active]:
                        if values >> CV[c] & 1:
                            return
                    self.active_done = True
                supporter = self.supporter
                if supporter >= 0 and not self.supporter_done:
                    for c in self.hands[supporter]:
                        if values >> CV[c] & 1:
                            return
                    self.supporter_done = True
            else:
                self.active_done = True
                if self.supporter >= 0:
                    self.supporter_done = True
            self._resolve()

    def _resolve(self) -> None:
        active, target, supporter = self.active, self.target, self.supporter
        pile = self.hands[target] if self.passed else self.discard
        pile += self.tc
        for r in self.tr:
            if r >= 0:
                pile.append(r)
        self.tc, self.tb, self.tr = [], [], []
        involved = (active, target) if supporter < 0 else (active, target, supporter)
        deck = self.deck
        if self.deck_pos < len(deck):
            for seat in involved:
                hand = self.hands[seat]
                need = HAND_SIZE - len(hand)
                if need > 0:
                    pos = self.deck_pos
                    got = deck[pos:pos + need]
                    hand.extend(got)
                    self.deck_pos = pos + len(got)
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
        value = self.stack.pop(0)
        self.fscore[seat] += value
        if self.round == 2:
            self.last[seat] = value
        self.out[seat] = True
        if not self.stack:
            self._end_round()
            return True
        return False

    def _next_challenge(self, target: int, passed: bool) -> None:
        n, out = self.n, self.out
        seat = (target + 1) % n if passed else target
        while out[seat] or (passed and seat == target):
            seat = (seat + 1) % n
        self._open(seat)

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
        self.supporter = -1 if supporter == active else supporter
        self.limit = min(MAX_LIMIT, len(self.hands[target]))
        self.passed = self.active_done = self.supporter_done = False
        self.values = 0
        self.unrejected = 0
        self.stage = OPEN

    def _start_phase_two(self) -> None:
        involved, target, passed = self.pending
        self.pending = None
        first = involved[0]
        n = self.n
        for k in range(n):
            seat = (first + k) % n
            if not self.hands[seat] and not self.out[seat] and self._take_feather(seat):
                return
        self._next_challenge(target, passed)

    def _end_round(self) -> None:
        self.stage = OVER
        loser = self.out.index(False)
        self.losers += 1
        piles = self.bet_piles
        for seat, (on, value) in enumerate(self.bets):
            piles[seat if on == loser else on] += value
        if self.round == 1 and self.next_deal is not None:
            hands, deck = self.next_deal
            self.next_deal = None
            self.begin_round(hands, deck, loser)


def can_reject_all(unrejected: list, hand: list, rej: tuple) -> bool:
    """Whether distinct hand cards can reject every card of `unrejected` (a matching)."""
    if len(unrejected) > len(hand):
        return False
    options = []
    for c in unrejected:
        bits = rej[c]
        opts = [i for i, r in enumerate(hand) if bits >> r & 1]
        if not opts:
            return False
        options.append(opts)
    options.sort(key=len)
    owner: dict = {}
    return all(augment(options, owner, k, set()) for k in range(len(options)))


def fast_game(deal: dict) -> FastState:
    """A fresh fast state for a stored deal (as `deal.state_from_deal`)."""
    first, second = deal["rounds"]
    f = FastState.__new__(FastState)
    n = f.n = len(first["hands"])
    f.round = 0
    f.fscore, f.last, f.bet_piles = [0] * n, [0] * n, [0] * n
    f.losers = 0
    f.next_deal = ([_codes(h) for h in second["hands"]], _codes(second["deck"]))
    f.tc, f.tb, f.tr = [], [], []
    f.begin_round([_codes(h) for h in first["hands"]], _codes(first["deck"]), deal["start"])
    return f
