"""A player who left a game (three timeouts in a row, or resigning) ranks last in the
ratings, whatever the bot that took the seat scored; blaze_recompute keeps that rule."""

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.services import bots_create
from games.models import Seat
from ratings.models import Rating, RatingChange
from ratings.services import game_finished_record

from .factories import finished_game

pytestmark = pytest.mark.django_db


def _abandon(game, user, reason=Seat.TIMEOUTS):
    Seat.objects.filter(game=game, user=user).update(
        abandoned=True, abandoned_reason=reason, bot_level=Seat.TAKEOVER_BOT_LEVEL)


def test_the_winner_who_timed_out_ranks_last_in_rating_and_leaderboard(client, ann, bob, cat):
    bots_create()
    # The handmade game ranks cat first, bob second, ann last; cat's bot won it for cat.
    game = finished_game([ann, bob, cat], handmade_game=True)
    _abandon(game, cat)
    game_finished_record(game_id=game.pk)

    ranks = dict(RatingChange.objects.filter(game=game).values_list("user__username", "rank"))
    assert ranks == {"bob": 1, "ann": 2, "cat": 3}
    shown = {r.user.username: r.displayed for r in Rating.objects.select_related("user")}
    assert shown["cat"] < 1000 < shown["bob"]
    board = client.get(reverse("leaderboard"), {"min": "0"}).content.decode()
    board = board[board.index("<tbody>"):]
    assert board.index(">bob<") < board.index(">ann<") < board.index(">cat<")
    profile = client.get(reverse("profile", args=["cat"])).content.decode()
    assert f"{shown['cat']}<span" in profile


def test_recompute_rebuilds_ratings_with_leavers_last(ann, bob, cat, dan):
    bots_create()
    games = [finished_game([ann, bob, cat], handmade_game=True, minutes=0),
             finished_game([dan, cat, bob, ann], seed=3, minutes=1),
             finished_game([cat, ann, bob], handmade_game=True, minutes=2)]
    _abandon(games[0], cat)
    _abandon(games[1], dan, Seat.RESIGNED)
    for game in games:
        game_finished_record(game_id=game.pk)
    stored = sorted(RatingChange.objects.values_list(
        "game_id", "user_id", "rank", "mu_after", "sigma_after"))
    ratings = sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games"))
    assert RatingChange.objects.get(game=games[1], user=dan).rank == 4

    call_command("blaze_recompute", stdout=open("/dev/null", "w"))
    assert sorted(RatingChange.objects.values_list(
        "game_id", "user_id", "rank", "mu_after", "sigma_after")) == stored
    assert sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games")) == ratings


def test_the_profile_shows_a_leaver_in_last_place_as_the_table_does(client, ann, bob, cat):
    from games.selectors import game_final_ranking
    from ratings.models import GameStat

    bots_create()
    # The handmade game ranks cat first, bob second, ann last; cat resigned, bob timed out.
    game = finished_game([ann, bob, cat], handmade_game=True)
    _abandon(game, cat, Seat.RESIGNED)
    game_finished_record(game_id=game.pk)
    assert game_final_ranking(game)[-1] == 2  # the table: cat's seat last
    assert GameStat.objects.get(game=game, user=cat).rank == 3
    profile = client.get(reverse("profile", args=["cat"])).content.decode()
    assert "place 3" in profile and "place 1" not in profile
    versus = client.get(reverse("profile", args=["cat"]), {"vs": "ann"}).content.decode()
    assert "places 3 and 2" in versus


def test_two_leavers_share_the_last_place_on_their_profiles(client, ann, bob, cat):
    from ratings.models import GameStat

    bots_create()
    game = finished_game([ann, bob, cat], handmade_game=True)
    _abandon(game, cat, Seat.RESIGNED)
    _abandon(game, bob)
    game_finished_record(game_id=game.pk)
    ranks = dict(GameStat.objects.filter(game=game).values_list("user__username", "rank"))
    assert ranks == {"ann": 1, "bob": 2, "cat": 2}
