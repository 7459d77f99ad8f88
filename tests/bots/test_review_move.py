"""games.bots.review_move: the strong bot's choice and its estimates, from one view."""

import random

import pytest

from games.bots import choose_move, move_key, review_move
from games.engine import deal_game, state_from_deal, view


def positions(seed: int, count: int):
    """(state, seat, move played) along a game of basic bots, bets left out."""
    rng = random.Random(seed)
    state = state_from_deal(deal_game(4, rng))
    found = 0
    while not state.finished and found < count:
        seat = state.waiting_on[0]
        move = choose_move(view(state, seat), seat, rng=rng, level="basic")
        if state.stage != "bet":
            yield state, seat, move
            found += 1
        state.apply(move)


def test_the_move_played_and_the_bots_choice_both_get_an_estimate():
    judged = 0
    for state, seat, played in positions(1, 30):
        best, chances = review_move(view(state, seat), seat, played,
                                    rng=random.Random(2), iterations=200)
        assert best["seat"] == seat
        if chances:
            judged += 1
            assert move_key(played) in chances and move_key(best) in chances
            assert all(0.0 <= p <= 1.0 for p in chances.values())
    assert judged > 10


def test_the_same_view_and_seed_give_the_same_review():
    state, seat, played = next(positions(3, 1))
    first = review_move(view(state, seat), seat, played, rng=random.Random(7), iterations=200)
    again = review_move(view(state, seat), seat, played, rng=random.Random(7), iterations=200)
    assert first == again


def test_a_card_order_does_not_make_another_move():
    assert move_key({"move": "challenge", "cards": ["R3", "B3"]}) == \
        move_key({"seat": 2, "move": "challenge", "cards": ["B3", "R3"]})
    assert move_key({"move": "reject", "pairs": [[1, "Y5"], [0, "B2"]]}) == \
        move_key({"move": "reject", "pairs": [[0, "B2"], [1, "Y5"]]})


def test_bets_and_positions_not_waiting_on_the_seat_are_refused():
    rng = random.Random(4)
    state = state_from_deal(deal_game(3, rng))
    seat = state.waiting_on[0]
    other = (seat + 1) % 3
    with pytest.raises(ValueError):
        review_move(view(state, other), other, {"move": "pass"}, iterations=100)
    while state.stage != "bet":
        s = state.waiting_on[0]
        state.apply(choose_move(view(state, s), s, rng=rng, level="basic"))
    s = state.waiting_on[0]
    with pytest.raises(ValueError, match="bets"):
        review_move(view(state, s), s, {"move": "bet", "on": (s + 1) % 3, "value": 0},
                    iterations=100)


def test_the_reviews_choice_is_the_strong_bots_move():
    """The review asks the strong bot's own search: on the same deals (same seed) it
    names the move the strong bot plays, when the move played is one it judges anyway."""
    from games.bots import Sampler
    from games.bots.ismcts import candidates

    compared = 0
    for state, seat, played in positions(5, 12):
        v = view(state, seat)
        count = len(candidates(Sampler(v, seat).sample_fast(random.Random(0)), seat))
        best, chances = review_move(v, seat, played, rng=random.Random(9),
                                    iterations=20 * count)
        strong = choose_move(v, seat, rng=random.Random(9), level="strong", iterations=20)
        if chances and len(chances) == count:  # the basic move played: no extra candidate
            compared += 1
            assert move_key(best) == move_key(strong)
    assert compared > 5
