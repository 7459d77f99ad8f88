# cython: annotation_typing=False
# (annotations are for readers: compiled, `message: str` would refuse a Phrase)
"""Game records in the `blaze-record/1` format (RECORD.md): import, export, replay."""

import json
from collections import Counter

from .cards import HAND_SIZE, deck_sizes, full_deck, is_card
from .state import OVER, IllegalMove, State
from .words import Sentence as S
from .words import gettext_noop as N_  # a marker: makemessages collects N_("…")

FORMAT = "blaze-record/1"
#: CARD_COUNTS[players]: the game's cards (read only)
CARD_COUNTS = {n: Counter(full_deck(n)) for n in (3, 4, 5)}
SORTED_DECKS = {n: sorted(full_deck(n)) for n in (3, 4, 5)}


class RecordError(ValueError):
    """A record that cannot be replayed: `round` and `ply` locate the fault."""

    def __init__(self, message: str, round: int | None = None, ply: int | None = None):
        super().__init__(message)
        self.sentence = message  # a Sentence or Phrase: the web layer translates it
        self.round = round
        self.ply = ply


def _is_seat(value, n: int) -> bool:
    return type(value) is int and 0 <= value < n


def _check_deal(rnd: dict, number: int, n: int) -> tuple[list, list]:
    """Shape checks of one round's deal; returns (hands, deck)."""
    if type(rnd) is not dict:
        raise RecordError(S(N_("round {number} must be a JSON object"), number=number), number)
    hands, deck = rnd.get("hands"), rnd.get("deck")
    if type(hands) is not list or len(hands) != n:
        raise RecordError(S(N_("round {number}: 'hands' must list {n} hands, one per seat"),
                            number=number, n=n), number)
    for seat, hand in enumerate(hands):
        if type(hand) is not list or len(hand) != HAND_SIZE:
            raise RecordError(S(N_("round {number}: seat {seat} must be dealt {size} cards"),
                                number=number, seat=seat, size=HAND_SIZE), number)
        for card in hand:
            if not is_card(card):
                raise RecordError(S(N_("round {number}: {card!r} in seat {seat}'s hand is not "
                                       "a card"), number=number, card=card, seat=seat), number)
    if type(deck) is not list:
        raise RecordError(S(N_("round {number}: 'deck' must be a list of cards"), number=number),
                          number)
    for card in deck:
        if not is_card(card):
            raise RecordError(S(N_("round {number}: {card!r} in the deck is not a card"),
                                number=number, card=card), number)
    expected = deck_sizes(n)[number - 1]
    if len(deck) != expected:
        raise RecordError(S(N_("round {number}: the deck must hold {expected} cards, not "
                               "{count}"), number=number, expected=expected, count=len(deck)),
                          number)
    # only round 2's start may be omitted (RECORD.md); moves are required, even if empty
    if type(rnd.get("moves")) is not list:
        raise RecordError(S(N_("round {number}: 'moves' must be a list"), number=number), number)
    return hands, deck


def _excess(part: Counter, whole: Counter) -> str | None:
    """The first card, in sorted order, that `part` holds more often than `whole`."""
    bad = [card for card, count in part.items() if count > whole[card]]
    return min(bad) if bad else None


def check_record(record) -> tuple[list, list]:
    """Check the record's shape and deals (RECORD.md, in its order); return (players, rounds)."""
    if type(record) is not dict:
        raise RecordError(N_("a record must be a JSON object"))
    if record.get("format") != FORMAT:
        raise RecordError(S(N_("'format' must be {format!r}"), format=FORMAT))
    players = record.get("players")
    if type(players) is not list or not 3 <= len(players) <= 5:
        raise RecordError(N_("'players' must list 3 to 5 names"))
    if any(type(p) is not str for p in players):
        raise RecordError(N_("every player name must be a string"))
    rounds = record.get("rounds")
    if type(rounds) is not list or not 1 <= len(rounds) <= 2:
        raise RecordError(N_("'rounds' must list one or two rounds"))
    n = len(players)

    card_set = CARD_COUNTS[n]
    first = rounds[0]
    hands, deck = _check_deal(first, 1, n)
    if not _is_seat(first.get("start"), n):
        raise RecordError(S(N_("round 1: 'start' must be a seat from 0 to {last}"), last=n - 1), 1)
    dealt1 = deck + [c for hand in hands for c in hand]
    first_cards = Counter(dealt1)
    bad = _excess(first_cards, card_set)
    if bad:
        raise RecordError(S(N_("round 1: the deal holds more {card} than the game has"),
                            card=bad), 1)

    if len(rounds) == 2:
        second = rounds[1]
        hands2, deck2 = _check_deal(second, 2, n)
        # round 1's cards are a part of the game's (checked above), so this is
        # Counter(deck2) == card_set - first_cards, without Counter's slower arithmetic
        if sorted(dealt1 + deck2) != SORTED_DECKS[n]:
            raise RecordError(N_("round 2: the deck must be exactly the cards not used in "
                                 "round 1"), 2)
        bad = _excess(Counter([c for hand in hands2 for c in hand]), first_cards)
        if bad:
            raise RecordError(S(N_("round 2: {card} is dealt more often than round 1 used it"),
                                card=bad), 2)
    return players, rounds


def _replay_moves(state: State, moves: list, number: int) -> None:
    for ply, move in enumerate(moves):
        try:
            state.apply(move)
        except IllegalMove as e:
            raise RecordError(e.sentence, number, ply) from None


def import_record(record) -> State:
    """Rebuild the state a record describes; raises RecordError for the first fault."""
    players, rounds = check_record(record)
    state = State(len(players))
    first = rounds[0]
    state.begin_round(first["hands"], first["deck"], first["start"])
    _replay_moves(state, first["moves"], 1)
    if len(rounds) == 2:
        second = rounds[1]
        if state.stage != OVER:
            raise RecordError(N_("round 2 cannot begin: round 1 is not over"), 2)
        loser = state.round_losers[0]
        start = second.get("start", loser)
        if not _is_seat(start, len(players)) or start != loser:
            raise RecordError(S(N_("round 2 must start with seat {seat}, the loser of round 1"),
                                seat=loser), 2)
        state.begin_round(second["hands"], second["deck"], loser)
        _replay_moves(state, second["moves"], 2)
    return state


def export_record(state: State, players: list[str], meta: dict | None = None) -> dict:
    """The record of the rounds dealt so far, moves included."""
    rounds = []
    for (hands, deck), start, moves in zip(state.deals, state.starts, state.moves):
        rounds.append({"hands": [list(h) for h in hands], "deck": list(deck), "start": start,
                       "moves": [dict(m) for m in moves]})
    record = {"format": FORMAT, "players": list(players), "rounds": rounds}
    if meta:
        record["meta"] = meta
    return record


def summary(state: State) -> dict:
    """The replay result of RECORD.md for a legal record."""
    return {
        "ok": True,
        "round": state.round,
        "phase": state.phase,
        "stage": state.stage,
        "waiting_on": state.waiting_on,
        "hand_sizes": [len(h) for h in state.hands],
        "deck_size": state.deck_size,
        "trump": state.trump,
        "feathers": state.feathers_taken(),
        "scores": state.scores,
        "round_losers": list(state.round_losers),
        "finished": state.finished,
        "ranking": state.ranking,
    }


def _not_json(constant: str):
    raise ValueError(f"{constant} is not a JSON number")


class LongInt:
    """A JSON integer with more digits than Python converts (sys.get_int_max_str_digits,
    4,300 by default): valid JSON, yet never a seat, index or value (not an int), and
    harmless where it is ignored (meta)."""

    __slots__ = ("digits",)

    def __init__(self, digits: str):
        self.digits = digits

    def __repr__(self) -> str:
        return f"<an integer of {len(self.digits)} characters>"


def _int(digits: str):
    try:
        return int(digits)
    except ValueError:
        return LongInt(digits)


def loads_json(text: str | bytes):
    """json.loads of JSON alone: Python's NaN, Infinity and -Infinity are not JSON (RFC
    8259), so they raise ValueError as any other text that is not JSON; an integer too
    long for Python to convert is read as a LongInt instead of failing the text."""
    return json.loads(text, parse_constant=_not_json, parse_int=_int)


def replay_line(line: str) -> dict:
    """One line of `blaze_replay` output for one line of input; never raises for bad input."""
    try:
        record = loads_json(line)
    except (ValueError, RecursionError) as e:
        return {"ok": False, "round": None, "ply": None, "error": f"not valid JSON: {e}"}
    try:
        return summary(import_record(record))
    except RecordError as e:
        return {"ok": False, "round": e.round, "ply": e.ply, "error": str(e)}
    except RecursionError:
        return {"ok": False, "round": None, "ply": None, "error": "the record is nested too deeply"}
