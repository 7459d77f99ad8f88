"""Chances of winning the game once round 1 is over (games/bots/outlook.py)."""

import pytest

from games.bots.outlook import win_chances


@pytest.mark.parametrize("players", [3, 4, 5])
def test_after_round_one_someone_wins_the_game(players):
    scores = list(range(players))  # feathers of round 1 in some order
    for starter in range(players):
        chances = win_chances(scores, starter)
        assert sum(chances) == pytest.approx(1.0)
        assert all(0.0 <= p <= 1.0 for p in chances)


def test_a_seat_far_ahead_after_round_one_nearly_always_wins():
    chances = win_chances([12, 0, 1, 2], starter=1)
    assert chances[0] > 0.95
    assert chances[1] < 0.01


def test_only_the_score_differences_matter():
    assert win_chances([3, 2, 1, 0], 3) == win_chances([13, 12, 11, 10], 3)


def test_leading_after_round_one_is_better_than_trailing():
    chances = win_chances([3, 2, 1, 0], starter=3)
    assert chances[0] > chances[1] > chances[2]
