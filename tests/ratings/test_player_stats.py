"""Profile figures, summed from games whose numbers are counted by hand."""

import pytest

from ratings.models import GameStat
from ratings.services import game_stats_record
from ratings.stats import head_to_head, player_stats, recent_games

from . import handmade
from .factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(ann, bob, cat, dan):
    """The handmade game three times (see handmade.py: seat 0 scores 3 and is last,
    seat 1 scores 4, seat 2 scores 6 and wins); the second is unrated and counts all the same."""
    games = [
        finished_game([ann, bob, cat], handmade_game=True, minutes=0),
        finished_game([bob, cat, ann], handmade_game=True, minutes=10, rated=False),
        finished_game([cat, ann, dan], handmade_game=True, minutes=20),
    ]
    for game in games:
        game_stats_record(game_id=game.pk)
    return games


def test_recording_a_game_twice_records_it_once(ann, bob, cat):
    game = finished_game([ann, bob, cat], handmade_game=True)
    assert game_stats_record(game_id=game.pk) == 3
    assert game_stats_record(game_id=game.pk) == 0
    rows = {s.user_id: s for s in GameStat.objects.filter(game=game)}
    assert rows[ann.pk].feathers == handmade.FIGURES[0]["feathers"]
    assert (rows[cat.pk].rank, rows[cat.pk].score, rows[cat.pk].feather_total) == (1, 6, 4)


def test_figures_per_player_match_the_hand_count(three_games, ann, cat):
    # ann: seat 0 (3 points, last), seat 2 (6, won), seat 1 (4, second).
    total = player_stats(ann)["total"]
    assert (total["games"], total["won"]) == (3, 1)
    assert total["average_score"] == pytest.approx((3 + 6 + 4) / 3)
    # feathers 2 + (1 + 3) + 2 = 8 over 6 rounds
    assert total["feathers"] == 8 and total["feathers_per_round"] == pytest.approx(8 / 6)
    assert total["rounds_lost"] == 1 + 0 + 1
    assert (total["bets_on_loser"], total["bets_placed"]) == (1 + 2 + 1, 6)
    assert total["bet_accuracy"] == pytest.approx(4 / 6)
    # cat: seat 2 (6, won), seat 1 (4), seat 0 (3)
    cat_total = player_stats(cat)["total"]
    assert (cat_total["games"], cat_total["won"], cat_total["rounds_lost"]) == (3, 1, 2)


def test_figures_are_split_by_player_count(three_games, ann, bob, dan):
    game_stats_record(game_id=finished_game([ann, bob, dan, "bot:random"], seed=8,
                                            minutes=40).pk)
    by_players = {row["players"]: row for row in player_stats(ann)["by_players"]}
    assert by_players[3]["games"] == 3 and by_players[4]["games"] == 1
    assert player_stats(ann)["total"]["games"] == 4


def test_recent_games_link_to_game_and_replay_newest_first(three_games, ann):
    recent = recent_games(ann)
    assert [g["game_id"] for g in recent] == [g.pk for g in reversed(three_games)]
    assert recent[0]["url"] == f"/games/{three_games[2].pk}/"
    assert recent[0]["replay_url"] == f"/games/{three_games[2].pk}/replay/"
    assert [s["name"] for s in recent[0]["seats"]] == ["dan", "ann", "cat"]


def test_head_to_head_counts_games_together_and_who_ranked_higher(three_games, ann, bob, dan):
    # game 1: bob 2nd, ann 3rd; game 2: ann won, bob 3rd
    h2h = head_to_head(ann, bob)
    assert (h2h["games"], h2h["ahead"], h2h["behind"]) == (2, 1, 1)
    h2h = head_to_head(ann, dan)  # game 3: ann seat 1 (2nd), dan seat 2 (won)
    assert (h2h["games"], h2h["ahead"], h2h["behind"]) == (1, 0, 1)
