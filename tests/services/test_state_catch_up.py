"""A process that missed a game's latest moves (another process made them) catches up from
the newest state it holds, applying only the moves it lacks, not the whole log."""

import random

import pytest

from games import selectors, state_cache
from games.engine import view
from games.selectors import game_state, game_state_rebuild, state_cache_clear
from tests.services.test_move_log import _play_random, _started_game

pytestmark = pytest.mark.django_db


def test_a_state_a_few_moves_behind_catches_up_to_the_same_state(
        ann, bob, cat, dan, monkeypatch, django_capture_on_commit_callbacks):
    game = _started_game([ann, bob, cat, dan])
    game = _play_random(game, 3, random.Random(2))
    held_seq = game.seq
    held = game_state_rebuild(game)
    game = _play_random(game, 5, random.Random(3))  # "another process" moves on
    expected = game_state_rebuild(game)
    assert game.seq > held_seq
    state_cache_clear()
    state_cache.put(game.pk, held_seq, held)

    def no_replay_from_the_deal(deal):
        raise AssertionError("replayed the whole log")

    monkeypatch.setattr(selectors, "initial_state", no_replay_from_the_deal)
    with django_capture_on_commit_callbacks(execute=True):  # as if committed
        caught_up = game_state(game)
    assert caught_up is not held
    for seat in (None, 0, 1, 2, 3):
        assert view(caught_up, seat) == view(expected, seat)
    assert view(held, None) != view(expected, None)  # the held state was not touched
    assert state_cache.get(game.pk, game.seq) is caught_up  # kept for the next reader


def test_each_game_keeps_only_its_latest_states(monkeypatch):
    monkeypatch.setattr(state_cache, "PER_GAME", 2)
    state_cache.clear()
    for seq in range(5):
        state_cache.put(7, seq, f"state {seq}")
    assert [state_cache.get(7, s) for s in range(5)] == [None, None, None, "state 3",
                                                         "state 4"]
    assert state_cache.newest_upto(7, 10) == (4, "state 4")
    assert state_cache.newest_upto(7, 3) == (3, "state 3")
    assert state_cache.newest_upto(7, 2) is None
    state_cache.clear()
