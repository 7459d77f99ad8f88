"""A bot's move depends only on its seat's view, never on hidden cards."""

import random

import pytest

from games.bots import choose_move
from games.engine import view


def shuffle_hidden(state, seat: int, rng):
    """A copy with the cards `seat` cannot see (other hands but their public
    cards, the deck but its trump card) shuffled among themselves."""
    other = state.clone()
    hidden = []
    for s in range(state.n):
        if s != seat:
            known = list(other.known[s])
            rest = list(other.hands[s])
            for c in known:
                rest.remove(c)
            hidden.extend(rest)
    deck_rest = other.deck[other.deck_pos:-1] if other.deck_pos < len(other.deck) else []
    hidden.extend(deck_rest)
    rng.shuffle(hidden)
    pos = 0
    for s in range(state.n):
        if s != seat:
            size = len(other.hands[s]) - len(other.known[s])
            other.hands[s] = list(other.known[s]) + hidden[pos:pos + size]
            pos += size
    if deck_rest:
        other.deck = other.deck[:other.deck_pos] + hidden[pos:] + [other.deck[-1]]
    return other


@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_move_does_not_change_when_hidden_cards_are_shuffled(level, make_positions):
    rng = random.Random(11)
    checked = 0
    for players in (3, 4, 5):
        for state in make_positions(players, players, 300)[::7]:
            seat = state.waiting_on[0]
            shuffled = shuffle_hidden(state, seat, rng)
            assert view(shuffled, seat) == view(state, seat)
            a = choose_move(view(state, seat), seat, random.Random(99), level, iterations=30)
            b = choose_move(view(shuffled, seat), seat, random.Random(99), level, iterations=30)
            assert a == b
            checked += 1
    assert checked >= 15
