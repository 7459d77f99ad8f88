"""The engine tells the facts of a move (games/engine/facts.py) while applying it once."""

import random

import pytest

from games.engine import IllegalMove, deal_game, random_move, state_from_deal
from games.engine.facts import apply_told
from games.engine.record import export_record


@pytest.mark.parametrize("players", [3, 4, 5])
def test_a_move_told_leaves_the_same_state_as_a_move_applied(players):
    deal = deal_game(players, random.Random(players))
    told, plain = state_from_deal(deal), state_from_deal(deal)
    rng = random.Random(7 + players)
    kinds = set()
    while not plain.finished:
        move = random_move(plain, rng)
        plain.apply(move)
        kinds.update(f["kind"] for f in apply_told(told, move))
        assert (told.round, told.stage, told.waiting_on, told.hands, told.scores) == (
            plain.round, plain.stage, plain.waiting_on, plain.hands, plain.scores)
    assert export_record(told, ["a"] * players) == export_record(plain, ["a"] * players)
    # round 2 was dealt by the told move that ended round 1
    assert {"round_over", "round_start", "game_over", "feather", "bets_placed"} <= kinds


def test_an_illegal_move_told_changes_nothing_and_keeps_round_two_dealt_later():
    state = state_from_deal(deal_game(4, random.Random(1)))
    wrong = {"seat": (state.active + 1) % 4, "move": "challenge",
             "cards": state.hands[(state.active + 1) % 4][:1]}
    with pytest.raises(IllegalMove):
        apply_told(state, wrong)
    assert state.next_deal is not None and state.moves == [[]]
