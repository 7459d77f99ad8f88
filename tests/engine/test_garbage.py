"""The engine's hot paths leave no reference cycles: a busy web process calls them at every
move, and cyclic garbage is freed only by the collector, whose runs pause the process."""

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# Counted in an interpreter of its own: the collector sees the whole process, and threads
# that other tests left in this one (event loops, pools) make garbage of their own.
COUNT = """
import gc
from games.engine import fast, state
from games.engine.cards import CARDS, SUITS
{setup}
gc.collect()
gc.disable()
for _ in range(50):
    {call}
print(gc.collect())
"""


def _cycles_made(setup: str, call: str) -> int:
    script = COUNT.format(setup=setup, call=call)
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                          text=True, check=True)
    return int(done.stdout)


def test_checking_that_a_hand_rejects_several_cards_makes_no_garbage_cycles():
    # three challenge cards, each rejectable only by some of the hand: the matching
    # search runs (one card alone is answered before it)
    setup = 'trump = "R"; unrejected = ["B1", "B2", "Y1"]; hand = ["B5", "B3", "Y9", "R2"]'
    assert _cycles_made(setup, "assert state.can_reject_all(unrejected, hand, trump)") == 0
    assert _cycles_made(setup, 'assert not state.can_reject_all(unrejected, '
                               '["B5", "B3", "B4"], trump)') == 0  # no Y or R


def test_the_fast_engines_matching_makes_no_garbage_cycles():
    setup = ("index = {c: i for i, c in enumerate(CARDS)}\n"
             "unrejected = [index[c] for c in ('B1', 'B2', 'Y1')]\n"
             "hand = [index[c] for c in ('B5', 'B3', 'Y9', 'R2')]\n"
             "rej = fast.REJ[SUITS.index('R')]  # the fast engine's cards and suits are indices")
    assert _cycles_made(setup, "assert fast.can_reject_all(unrejected, hand, rej)") == 0


def test_a_call_that_makes_cycles_is_counted():
    # the count itself can fail: a self-referencing list each call is 50 cycles
    assert _cycles_made("", "x = []; x.append(x); del x") == 50
