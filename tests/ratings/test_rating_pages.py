"""The profile shows figures, the rating chart and head-to-head; the leaderboard ranks."""

import pytest
from django.urls import reverse

from accounts.services import bots_create
from ratings.models import Rating
from ratings.services import game_finished_record

from .factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(ann, bob, cat):
    bots_create()
    for k in range(6):  # cat wins the handmade game, ann comes last
        game_finished_record(game_id=finished_game([ann, bob, cat], handmade_game=True,
                                                   minutes=k).pk)
    game_finished_record(game_id=finished_game([ann, bob, "bot:strong"], handmade_game=True,
                                               minutes=10).pk)


def test_profile_shows_figures_chart_and_recent_games(client, played, ann):
    page = client.get(reverse("profile", args=["cat"])).content.decode()
    assert "<svg" in page and 'viewBox="0 0 600 260"' in page
    assert "<title id=\"rating-chart-title\">Rating history of cat</title>" in page
    assert "<polyline" in page
    rating = Rating.objects.get(user__username="cat").displayed
    assert f"{rating}<span" in page  # provisional: fewer than 10 games
    assert 'href="/games/' in page and "/replay/" in page
    assert "Feathers per round" in page


def test_profile_without_games_has_no_chart(client, dan):
    response = client.get(reverse("profile", args=["dan"]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "<svg" not in page and "No finished games yet." in page and ">1000<" in page


def test_profile_compares_head_to_head(client, played):
    page = client.get(reverse("profile", args=["cat"]), {"vs": "ann"}).content.decode()
    assert "6 games together: cat finished ahead in 6" in page
    page = client.get(reverse("profile", args=["cat"]), {"vs": "nobody"}).content.decode()
    assert "No other player is called" in page


def test_leaderboard_ranks_by_rating_and_marks_bots(client, played):
    page = client.get(reverse("leaderboard")).content.decode()
    assert page.index(">cat<") < page.index(">bob<") < page.index(">ann<")
    assert "bot-strong" not in page  # one game: below the default minimum of 5
    page = client.get(reverse("leaderboard"), {"min": "1"}).content.decode()
    assert ">Strong bot</a>" in page  # by its level's one name (games.models.BOT_NAMES)


def test_leaderboard_filters_by_player_count(client, played, ann, dan, eve):
    page = client.get(reverse("leaderboard"), {"players": "4", "min": "0"}).content.decode()
    assert ">cat<" not in page and "Nobody has played enough" in page
    for k in range(2):
        game_finished_record(game_id=finished_game([ann, dan, eve, "bot:strong"], seed=k,
                                                   minutes=20 + k).pk)
    page = client.get(reverse("leaderboard"), {"players": "4", "min": "2"}).content.decode()
    assert ">ann<" in page and ">dan<" in page and ">cat<" not in page


def test_leaderboard_ignores_bad_parameters(client, played):
    response = client.get(reverse("leaderboard"), {"players": "9", "min": "lots"})
    assert response.status_code == 200 and ">cat<" in response.content.decode()


def test_nav_links_to_the_leaderboard(client):
    assert reverse("leaderboard") in client.get("/").content.decode()
