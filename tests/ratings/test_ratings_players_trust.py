"""Ratings players trust: new ratings are provisional and off the leaderboard until enough
games against varied opponents; bots play at anchors of their measured strength, so two
wins over random bots put nobody on the board, and the board ranks by the conservative
rating."""

import pytest
from django.urls import reverse

from accounts.services import bots_create
from ratings import rating as skill
from ratings.models import Rating
from ratings.services import game_finished_record
from ratings.stats import leaderboard

from .factories import finished_game

pytestmark = pytest.mark.django_db


def _win_against(user, bots, minutes: int):
    # the handmade game ranks seat 2 first: the player sits there
    game = finished_game([*bots, user], handmade_game=True, minutes=minutes)
    game_finished_record(game_id=game.pk)


def test_a_new_player_who_beats_random_bots_twice_is_not_on_the_leaderboard(client, dan):
    bots_create()
    for k in range(2):
        _win_against(dan, ["bot:random", "bot:random"], minutes=k)
    rating = Rating.objects.get(user=dan)
    assert rating.games == 2 and rating.provisional
    for query in ({}, {"min": "0"}, {"min": "1"}):
        page = client.get(reverse("leaderboard"), query).content.decode()
        assert ">dan<" not in page, query
    profile = client.get(reverse("profile", args=["dan"])).content.decode()
    assert f"{rating.displayed}<span" in profile  # shown with the provisional mark


def test_beating_random_bots_is_worth_less_than_beating_strong_ones(dan, eve):
    bots_create()
    _win_against(dan, ["bot:random", "bot:random"], minutes=0)
    _win_against(eve, ["bot:strong", "bot:strong"], minutes=1)
    gained = {r.user.username: r.mu - skill.MU for r in Rating.objects.select_related("user")
              .filter(user__in=[dan, eve])}
    assert 0 < gained["dan"] < gained["eve"] / 2


def test_bots_keep_their_anchors_whatever_they_lose(dan):
    bots_create()
    for k in range(3):
        _win_against(dan, ["bot:random", "bot:basic"], minutes=k)
    anchors = {r.user.username: (r.mu, r.sigma) for r in Rating.objects.filter(
        user__is_bot=True).select_related("user")}
    assert anchors == {"bot-random": skill.BOT_ANCHORS["random"],
                       "bot-basic": skill.BOT_ANCHORS["basic"]}


def test_ten_games_against_one_opponent_are_not_enough(ann, bob):
    bots_create()
    for k in range(skill.PROVISIONAL_GAMES):
        _win_against(ann, [bob, "bot:random"], minutes=k)
    ann_rating = Rating.objects.get(user=ann)
    assert ann_rating.games == 10 and ann_rating.opponents == [str(bob.pk), "bot-random"]
    assert ann_rating.provisional
    assert "ann" not in [row["user"].username for row in leaderboard(min_games=0)]


def test_enough_games_against_varied_opponents_establish_a_player(ann, bob, cat):
    bots_create()
    for k in range(skill.PROVISIONAL_GAMES):
        _win_against(ann, [bob if k % 2 else cat, "bot:basic"], minutes=k)
    assert not Rating.objects.get(user=ann).provisional
    board = [row["user"].username for row in leaderboard(min_games=0)]
    assert "ann" in board and "bob" not in board


def test_the_board_ranks_by_the_conservative_rating(ann, bob):
    Rating.objects.create(user=ann, mu=40, sigma=8, games=20, established=True)  # 40-24=16
    Rating.objects.create(user=bob, mu=30, sigma=2, games=20, established=True)  # 30-6=24
    assert [row["user"] for row in leaderboard(min_games=0)] == [bob, ann]
