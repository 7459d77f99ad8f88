"""The engine's hot paths leave no reference cycles: a busy web process calls them at every
move, and cyclic garbage is freed only by the collector, whose runs pause the process."""

import gc

from games.engine import fast, state
from games.engine.cards import CARDS, SUITS


def _cycles_made(call) -> int:
    gc.collect()
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        for _ in range(50):
            call()
        return gc.collect()
    finally:
        if was_enabled:
            gc.enable()


def test_checking_that_a_hand_rejects_several_cards_makes_no_garbage_cycles():
    # three challenge cards, each rejectable only by some of the hand: the matching
    # search runs (one card alone is answered before it)
    trump = "R"
    unrejected = ["B1", "B2", "Y1"]
    hand = ["B5", "B3", "Y9", "R2"]
    assert state.can_reject_all(unrejected, hand, trump)
    assert not state.can_reject_all(unrejected, ["B5", "B3", "B4"], trump)  # no Y or R
    assert _cycles_made(lambda: state.can_reject_all(unrejected, hand, trump)) == 0


def test_the_fast_engines_matching_makes_no_garbage_cycles():
    index = {c: i for i, c in enumerate(CARDS)}
    unrejected = [index[c] for c in ("B1", "B2", "Y1")]
    hand = [index[c] for c in ("B5", "B3", "Y9", "R2")]
    rej = fast.REJ[SUITS.index("R")]  # the fast engine's cards and suits are indices
    assert fast.can_reject_all(unrejected, hand, rej)
    assert _cycles_made(lambda: fast.can_reject_all(unrejected, hand, rej)) == 0
