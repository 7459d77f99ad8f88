"""A process that missed a game's latest moves (another process made them) catches up from
the newest state it holds, applying only the moves it lacks, not the whole log."""

import random

import pytest
from django.db import connection

from games import selectors, services, state_cache
from games.engine import view
from games.selectors import game_state, game_state_rebuild, state_cache_clear
from tests.games_helpers import random_legal_move
from tests.services.test_move_log import _play_random, _started_game, _user_at

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


def _behind(users, rng_seed=2):
    """A game 5 moves past the only state this process holds: (game, held seq, expected)."""
    game = _play_random(_started_game(users), 3, random.Random(rng_seed))
    held_seq, held = game.seq, game_state_rebuild(game)
    game = _play_random(game, 5, random.Random(rng_seed + 1))
    state_cache_clear()
    state_cache.put(game.pk, held_seq, held)
    return game, held_seq, game_state_rebuild(game)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the log tail is PostgreSQL's")
def test_a_game_read_with_its_row_catches_up_without_another_query(
        ann, bob, cat, dan, django_assert_num_queries, django_capture_on_commit_callbacks):
    game, held_seq, expected = _behind([ann, bob, cat, dan])
    found = selectors.game_and_seats(game.pk)
    loaded = found[0]
    assert found.log_tail[0] == held_seq - 1  # from the move before the held state
    with django_assert_num_queries(0), django_capture_on_commit_callbacks(execute=True):
        caught_up = game_state(loaded, found.log_tail)
        words = selectors._last_move_events(loaded, found.log_tail)
    for seat in (None, 0, 1, 2, 3):
        assert view(caught_up, seat) == view(expected, seat)
    assert words and words[0][0] == game.seq
    state_cache_clear()  # nothing held: the whole log comes with the row
    found = selectors.game_and_seats(game.pk)
    with django_assert_num_queries(0), django_capture_on_commit_callbacks(execute=True):
        assert view(game_state(found[0], found.log_tail), 1) == view(expected, 1)


def test_a_move_where_another_process_made_the_last_ones_costs_no_more_queries(
        ann, bob, cat, dan, django_assert_max_num_queries, django_capture_on_commit_callbacks):
    game, _held_seq, expected = _behind([ann, bob, cat, dan])
    seat = game.waiting_on[0]
    user = _user_at(game, seat)
    move = random_legal_move(game, seat, random.Random(9))  # (reads the state: hold it no more)
    state_cache_clear()
    state_cache.put(game.pk, game.seq - 4, selectors._replayed(
        game, selectors.initial_state(game.deal), 0, game.seq - 4))
    # as a move with the state cached (tests/web/test_live_updates.py: savepoints here
    # instead of begin and commit); elsewhere the move and the game are two statements,
    # and the moves the process lacks one more
    with django_capture_on_commit_callbacks() as after_commit:
        with django_assert_max_num_queries(4 if connection.vendor == "postgresql" else 8):
            services.move_play(game_id=game.pk, user=user, seq=game.seq, move=move)
    for callback in after_commit:
        callback()
    expected.apply({**move, "seat": seat})
    game.refresh_from_db()
    assert view(state_cache.get(game.pk, game.seq), seat) == view(expected, seat)
    assert view(game_state_rebuild(game), None) == view(expected, None)


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


def test_a_move_caught_up_from_an_older_state_caches_only_its_outcome(
        ann, bob, cat, dan, django_capture_on_commit_callbacks):
    # the caught-up state is the move's own copy: applied to at once, not cached and
    # cloned again (one new state a move, not two, for the collector to walk)
    game, held_seq, expected = _behind([ann, bob, cat, dan])
    held = state_cache.get(game.pk, held_seq)
    before = view(held, None)
    seat = game.waiting_on[0]
    move = random_legal_move(game, seat, random.Random(9))
    state_cache_clear()
    state_cache.put(game.pk, held_seq, held)
    with django_capture_on_commit_callbacks(execute=True):
        services.move_play(game_id=game.pk, user=_user_at(game, seat), seq=game.seq,
                           move=move)
    expected.apply({**move, "seat": seat})
    assert view(state_cache.get(game.pk, game.seq + 1), seat) == view(expected, seat)
    assert state_cache.get(game.pk, game.seq) is None
    assert view(held, None) == before  # the held state was not touched


def test_the_state_a_move_changes_is_a_copy_of_the_cached_one(ann, bob, cat, dan):
    game = _play_random(_started_game([ann, bob, cat, dan]), 3, random.Random(4))
    state_cache_clear()
    cached = game_state_rebuild(game)
    state_cache.put(game.pk, game.seq, cached)
    before = view(cached, None)
    mine = selectors.game_state_to_change(game)
    assert mine is not cached and view(mine, None) == before
    seat = game.waiting_on[0]
    mine.apply({**random_legal_move(game, seat, random.Random(5)), "seat": seat})
    assert view(cached, None) == before
    assert state_cache.get(game.pk, game.seq) is cached


def test_the_process_that_made_the_last_move_tells_it_without_the_state_before_it(
        ann, bob, cat, dan, monkeypatch, django_capture_on_commit_callbacks):
    game = _play_random(_started_game([ann, bob, cat, dan]), 4, random.Random(6))
    seat = game.waiting_on[0]
    move = random_legal_move(game, seat, random.Random(7))
    with django_capture_on_commit_callbacks(execute=True):
        services.move_play(game_id=game.pk, user=_user_at(game, seat), seq=game.seq,
                           move=move)
    game.refresh_from_db()
    expected = selectors.game_events(game)[-1]

    def no_state_before(*args, **kwargs):
        raise AssertionError("read the state before the last move")

    monkeypatch.setattr(selectors, "_state_at", no_state_before)
    assert selectors._last_move_events(game) == [expected]
    state_cache_clear()  # another process: it has no facts of that move
    monkeypatch.undo()
    assert selectors._last_move_events(game) == [expected]
