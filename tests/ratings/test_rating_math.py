"""The pure rating rules: openskill's Plackett-Luce, the displayed number, abandoning."""

from ratings import rating as skill


def test_a_new_player_shows_1000_and_is_provisional():
    assert skill.displayed(*skill.initial()) == 1000
    assert skill.is_provisional(0) and skill.is_provisional(skill.PROVISIONAL_GAMES - 1)
    assert not skill.is_provisional(skill.PROVISIONAL_GAMES)


def test_the_winner_gains_and_the_last_loses():
    after = skill.rate([skill.initial()] * 4)
    mus = [mu for mu, _ in after]
    assert mus[0] > skill.MU > mus[-1]
    assert mus == sorted(mus, reverse=True)
    assert all(sigma < skill.SIGMA for _, sigma in after)


def test_beating_a_stronger_player_gains_more_than_beating_a_weaker_one():
    strong, weak = (35.0, 3.0), (15.0, 3.0)
    beat_strong = skill.rate([skill.initial(), strong, skill.initial()])[0][0]
    beat_weak = skill.rate([skill.initial(), weak, skill.initial()])[0][0]
    assert beat_strong > beat_weak > skill.MU


def test_an_abandoning_seat_ranks_last_whatever_its_score():
    assert skill.rank_order([2, 0, 1, 3], abandoned={0}) == [(2, 1), (1, 2), (3, 3), (0, 4)]


def test_two_abandoning_seats_tie_for_last():
    order = skill.rank_order([3, 1, 0, 2, 4], abandoned={1, 3})
    assert order == [(0, 1), (2, 2), (4, 3), (3, 4), (1, 4)]
    after = skill.rate([skill.initial()] * 5, [rank for _, rank in order])
    assert after[3] == after[4]
    assert after[3][0] < skill.MU


def test_rating_is_deterministic():
    ratings = [(27.0, 6.0), (25.0, 8.3), (22.0, 4.0)]
    assert skill.rate(ratings) == skill.rate(ratings)
