"""The fast basic policy (rollouts of the strong bot) decides exactly like the basic bot."""

from games.bots.basic import basic_move
from games.bots.fastbasic import fast_basic_move
from games.engine.fast import FastState, decode_move


def test_the_fast_policy_agrees_with_the_basic_bot_everywhere(sample_positions):
    checked = 0
    for state in sample_positions:
        for seat in state.waiting_on:
            fast = FastState.from_state(state)
            assert decode_move(fast_basic_move(fast, seat)) == basic_move(state, seat)
            checked += 1
    assert checked > 400
