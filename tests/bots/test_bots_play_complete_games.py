import random
from types import SimpleNamespace

import pytest

from games.bots import choose_move
from games.engine import legal_moves, new_game, view


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


def test_strong_bot_stops_searching_when_its_time_budget_is_spent(monkeypatch):
    # A fake clock that advances 10 ms whenever the bot looks at it: a 100 ms budget
    # allows a handful of iterations, however fast or busy the machine is.
    from games.bots import ismcts, plan, rollout

    now = [0.0]

    def tick():
        now[0] += 0.010
        return now[0]

    for module in (ismcts, plan, rollout):
        monkeypatch.setattr(module, "time", SimpleNamespace(perf_counter=tick))
    state = new_game(4, random.Random(3))
    seat = state.waiting_on[0]
    stats: dict = {}
    move = choose_move(view(state, seat), seat, random.Random(1), "strong", budget_ms=100,
                       stats=stats)
    assert move in legal_moves(state, seat)
    assert 1 <= stats.get("deals", stats["iterations"]) <= 10


def test_the_ismcts_search_still_plays_legal_moves_when_chosen(monkeypatch):
    import games.bots

    monkeypatch.setattr(games.bots, "SEARCH", "ismcts")
    state = new_game(4, random.Random(8))
    moves = 0
    while not state.finished and moves < 40:
        seat = state.waiting_on[0]
        stats: dict = {}
        move = choose_move(view(state, seat), seat, random.Random(moves), "strong",
                           iterations=20, stats=stats)
        assert move in legal_moves(state, seat)
        state.apply(move)
        moves += 1
    assert moves == 40 or state.finished


def test_the_strong_bet_is_legal_and_the_same_for_the_same_view_and_seed():
    from games.engine import random_move

    rng = random.Random(2)
    found = 0
    for seed in range(40):
        state = new_game(4, random.Random(seed))
        while state.stage != "bet" and not state.finished:
            state.apply(random_move(state, rng))
        if state.stage != "bet":
            continue
        seat = state.waiting_on[0]
        v = view(state, seat)
        move = choose_move(v, seat, random.Random(1), "strong", iterations=60)
        assert move in legal_moves(state, seat)
        assert choose_move(v, seat, random.Random(1), "strong", iterations=60) == move
        found += 1
        if found == 5:
            break
    assert found == 5
