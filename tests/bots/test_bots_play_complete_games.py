import random

import pytest

from games.bots import choose_move
from games.engine import new_game, view


@pytest.mark.parametrize("players", [3, 4, 5])
@pytest.mark.parametrize("level", ["random", "basic", "strong"])
def test_every_level_plays_complete_games_with_legal_moves(players, level):
    rng = random.Random(players * 7)
    state = new_game(players, rng)
    moves = 0
    while not state.finished:
        seat = state.waiting_on[0]
        move = choose_move(view(state, seat), seat, rng, level, iterations=20)
        state.apply(move)  # raises IllegalMove on a bad move
        moves += 1
        assert moves < 3000, "the bots circled"
    assert sorted(state.ranking) == list(range(players))


def test_mixed_table_finishes_games():
    rng = random.Random(5)
    for players in (3, 4, 5):
        state = new_game(players, rng)
        levels = ["strong", "basic", "random", "basic", "random"][:players]
        while not state.finished:
            seat = state.waiting_on[0]
            state.apply(choose_move(view(state, seat), seat, rng, levels[seat], iterations=10))


def test_unknown_level_is_refused():
    state = new_game(4, random.Random(1))
    seat = state.waiting_on[0]
    with pytest.raises(ValueError):
        choose_move(view(state, seat), seat, random.Random(1), "grandmaster")


def test_seat_not_waited_on_is_refused():
    state = new_game(4, random.Random(1))
    seat = (state.waiting_on[0] + 1) % 4
    with pytest.raises(ValueError):
        choose_move(view(state, seat), seat, random.Random(1), "basic")


def test_strong_bot_respects_a_time_budget():
    import time
    state = new_game(4, random.Random(3))
    seat = state.waiting_on[0]
    started = time.perf_counter()
    choose_move(view(state, seat), seat, random.Random(1), "strong", budget_ms=100)
    assert time.perf_counter() - started < 0.5
