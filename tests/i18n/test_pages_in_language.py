"""The main pages asked for in Japanese or Spanish: the right <html lang>, no English."""

import random

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.conftest import make_user
from tests.games_helpers import random_legal_move
from tests.i18n.english import english_left
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db



@pytest.fixture(params=["ja", "es"])
def lang(request):
    return request.param


def _check(response, lang, also_kept=()):
    assert response.status_code == 200, response.status_code
    html = response.content.decode()
    assert f'<html lang="{lang}">' in html
    left = english_left(html, lang, set(also_kept))
    assert not left, f"English left in {response.request['PATH_INFO']} ({lang}): {left}"


@pytest.fixture
def world(db, ann, bob, cat, lang):
    """A started game, a finished one, a tournament: something on every page. Ann reads
    the site in `lang` (her notifications are written in her language)."""
    ann.language = lang
    ann.save()
    playing = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=playing.pk, user=user)
    done = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=done.pk, user=user)
    rng = random.Random(3)
    while True:
        done.refresh_from_db()
        if done.status != Game.PLAYING:
            break
        seat = done.waiting_on[0]
        services.move_play(game_id=done.pk, user=done.seats.get(index=seat).user,
                           seq=done.seq, move=random_legal_move(done, seat, rng))
    services.game_create(creator=bob, players=4)  # an open table in the lobby
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.services import tournament_create

    tournament = tournament_create(
        organiser=ann, name="Copa", format=Tournament.SWISS, table_size=4, rounds=3,
        advance_per_table=2, time_control={"kind": "live", "minutes": 10},
        registration_closes=timezone.now() + timedelta(days=1), starts_at=None,
        min_players=3, max_players=40, rated=False, allow_bots=False, bot_level="basic",
    )
    return {"playing": playing, "done": done, "tournament": tournament}


def _pages(world):
    return [
        "/", reverse("play"), reverse("rules"), reverse("my_games"), reverse("tournaments"),
        reverse("tournament_new"), reverse("tournament_detail", args=[world["tournament"].pk]),
        reverse("leaderboard"), reverse("profile", args=["ann"]),
        reverse("account_settings"), reverse("account_tokens"), reverse("vacation"),
        reverse("notifications"), f"/games/{world['playing'].pk}/",
        f"/games/{world['done'].pk}/replay/",
    ]


def test_a_players_pages_are_all_in_the_language_asked_for(client, ann, world, lang):
    client.force_login(ann)
    for url in _pages(world):
        _check(client.get(url, HTTP_ACCEPT_LANGUAGE=lang), lang, also_kept={"Copa"})


def test_a_visitors_pages_are_all_in_the_language_asked_for(client, world, lang):
    for url in ["/", reverse("play"), reverse("rules"), reverse("tournaments"),
                reverse("leaderboard"),
                reverse("account_login"), reverse("account_signup"),
                reverse("account_reset_password")]:
        _check(client.get(url, HTTP_ACCEPT_LANGUAGE=lang), lang, also_kept={"Copa"})


def test_the_detector_finds_english_when_it_is_there(client):
    page = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert english_left(page, "ja") and english_left(page, "es")


def test_a_user_with_japanese_set_gets_japanese_whatever_the_browser(client, db):
    yuki = make_user("yuki", language="ja")
    client.force_login(yuki)
    _check(client.get(reverse("account_settings"), HTTP_ACCEPT_LANGUAGE="es"), "ja")
