"""Dealing a new game with a cryptographic shuffle (RULES.md §4)."""

import secrets

from .cards import HAND_SIZE, deck_sizes, full_deck
from .state import State

_system = secrets.SystemRandom()


def deal_game(players: int, rng=_system) -> dict:
    """Both rounds' deals and round 1's start, drawn up front.

    Round 2's hands are a shuffle of round 1's cards and its deck the cards set
    aside, so dealing them now is the same draw as dealing them later.
    """
    cards = full_deck(players)
    rng.shuffle(cards)
    size1, _ = deck_sizes(players)
    cut = HAND_SIZE * players
    hands1 = [cards[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(players)]
    deck1 = cards[cut:cut + size1]
    deck2 = cards[cut + size1:]
    used = cards[:cut + size1]
    rng.shuffle(used)
    hands2 = [used[i * HAND_SIZE:(i + 1) * HAND_SIZE] for i in range(players)]
    return {
        "rounds": [{"hands": hands1, "deck": deck1}, {"hands": hands2, "deck": deck2}],
        "start": rng.randrange(players),
    }


def state_from_deal(deal: dict) -> State:
    """A fresh state for a stored deal; round 2 starts by itself when round 1 ends."""
    first, second = deal["rounds"]
    state = State(len(first["hands"]))
    state.next_deal = (second["hands"], second["deck"])
    state.begin_round(first["hands"], first["deck"], deal["start"])
    return state


def new_game(players, rng=_system) -> State:
    """A new game for `players` (a count, or the list of names) with a fresh deal."""
    n = players if isinstance(players, int) else len(players)
    return state_from_deal(deal_game(n, rng))
