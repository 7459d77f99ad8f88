"""Per-seat figures come from replaying the move log through the engine."""

import pytest

from ratings.figures import game_figures

from . import handmade


def test_figures_of_the_handmade_game_match_the_hand_count():
    assert game_figures(handmade.DEAL, handmade.MOVES) == handmade.FIGURES


def test_an_unfinished_game_takes_score_and_ranking_from_its_result():
    result = {"scores": [0, 2, 1], "ranking": [1, 2, 0]}
    figures = game_figures(handmade.DEAL, handmade.MOVES[:7], result)
    assert [f["rank"] for f in figures] == [3, 1, 2]
    assert [f["score"] for f in figures] == [0, 2, 1]
    # round 2 had begun: nobody has a feather of it yet
    assert [f["feathers"] for f in figures] == [[[], []], [[2], []], [[1], []]]
    assert [f["rounds_lost"] for f in figures] == [1, 0, 0]
    assert [f["bets_on_loser"] for f in figures] == [0, 1, 1]


def test_an_unfinished_game_without_a_ranking_is_refused():
    with pytest.raises(ValueError):
        game_figures(handmade.DEAL, handmade.MOVES[:3], None)
