"""Quotas and rate limits: 429 with Retry-After, JSON for the API, a readable page elsewhere."""

import random
from datetime import UTC, datetime

import pytest
import time_machine
from django.urls import reverse

from games import services
from games.models import Game
from tests.abuse.conftest import finished_record
from tests.games_helpers import api_post, bearer, random_legal_move

pytestmark = pytest.mark.django_db

NOON = datetime(2026, 11, 23, 12, 0, 0, tzinfo=UTC)


def _assert_429_json(response, *words):
    assert response.status_code == 429
    assert int(response["Retry-After"]) >= 1
    error = response.json()["error"]
    for word in words:
        assert word in error


def test_a_user_has_a_handful_of_tables_waiting_for_players_at_most(client, ann, settings):
    settings.BLAZE_MAX_WAITING_TABLES = 3
    auth = bearer(ann)
    for _ in range(3):
        assert api_post(client, "/api/v1/games", {"players": 4}, auth).status_code == 201
    _assert_429_json(api_post(client, "/api/v1/games", {"players": 4}, auth), "waiting")
    assert Game.objects.filter(status=Game.WAITING).count() == 3


def test_the_lobby_answers_the_table_quota_with_a_readable_429_page(ann_client, settings):
    settings.BLAZE_MAX_WAITING_TABLES = 1
    ann_client.post(reverse("game_create"), {"players": "4"})
    page = ann_client.post(reverse("game_create"), {"players": "4"})
    assert page.status_code == 429 and int(page["Retry-After"]) >= 1
    text = page.content.decode()
    assert "<h1>Slow down a little</h1>" in text and "tables waiting for players" in text
    assert Game.objects.count() == 1


def test_strong_bots_at_ones_tables_at_once_are_limited(client, ann, settings):
    settings.BLAZE_MAX_STRONG_BOT_SEATS = 2
    auth = bearer(ann)
    first = api_post(client, "/api/v1/games", {"players": 4, "bots": ["strong", "strong"]}, auth)
    assert first.status_code == 201
    _assert_429_json(
        api_post(client, "/api/v1/games", {"players": 4, "bots": ["strong"]}, auth), "strong")
    second = api_post(client, "/api/v1/games", {"players": 4, "bots": ["basic"]}, auth)
    _assert_429_json(api_post(client, f"/api/v1/games/{second.json()['id']}/bots",
                              {"level": "strong"}, auth), "strong")
    assert api_post(client, f"/api/v1/games/{second.json()['id']}/bots",
                    {"level": "basic"}, auth).status_code == 200


def test_tournament_tables_are_not_held_to_a_persons_quotas(ann, settings):
    settings.BLAZE_MAX_WAITING_TABLES = 1
    for _ in range(3):
        services.game_create(creator=ann, players=4)  # quotas=False: the site's own tables
    assert Game.objects.count() == 3


def test_games_created_an_hour_are_limited(client, ann, settings):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "game_create": "2/h"}
    settings.BLAZE_MAX_WAITING_TABLES = 10
    auth = bearer(ann)
    with time_machine.travel(NOON, tick=False):
        for _ in range(2):
            assert api_post(client, "/api/v1/games", {"players": 3}, auth).status_code == 201
        _assert_429_json(api_post(client, "/api/v1/games", {"players": 3}, auth), "tables")
    assert Game.objects.count() == 2


def test_the_rate_is_per_user_not_per_address(client, ann, bob, settings):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "game_create": "1/h"}
    with time_machine.travel(NOON, tick=False):
        assert api_post(client, "/api/v1/games", {"players": 3}, bearer(ann)).status_code == 201
        assert api_post(client, "/api/v1/games", {"players": 3}, bearer(bob)).status_code == 201


def test_imports_a_day_are_limited_on_the_api_and_the_page(client, ann, settings):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "record_import": "2/d"}
    record = finished_record()
    auth = bearer(ann)
    with time_machine.travel(NOON, tick=False):
        for _ in range(2):
            assert api_post(client, "/api/v1/games/import", record, auth).status_code == 201
        _assert_429_json(api_post(client, "/api/v1/games/import", record, auth), "imported")
        client.force_login(ann)
        page = client.post(reverse("record_import"), {"text": "{}"})
        assert page.status_code == 429 and "imported too many" in page.content.decode()
    assert Game.objects.count() == 2


def _three_player_game(ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def test_move_posts_a_second_are_limited(client, ann, bob, cat, settings):
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "move": "3/s"}
    game = _three_player_game(ann, bob, cat)
    auth = bearer(ann)
    with time_machine.travel(NOON, tick=False):
        answers = [api_post(client, f"/api/v1/games/{game.pk}/moves",
                            {"seq": 999, "move": {"move": "pass"}}, auth) for _ in range(4)]
    assert [a.status_code for a in answers] == [409, 409, 409, 429]
    _assert_429_json(answers[-1], "moves")


def test_players_making_one_move_a_turn_at_full_speed_never_hit_the_move_limit(
        client, ann, bob, cat):
    game = _three_player_game(ann, bob, cat)
    auth = {u.pk: bearer(u) for u in (ann, bob, cat)}
    rng = random.Random(5)
    while game.status == Game.PLAYING:
        seat = game.waiting_on[0]
        user = game.seats.get(index=seat).user
        response = api_post(client, f"/api/v1/games/{game.pk}/moves",
                            {"seq": game.seq, "move": random_legal_move(game, seat, rng)},
                            auth[user.pk])
        assert response.status_code == 200, response.json()
        game.refresh_from_db()
    assert game.status == Game.FINISHED



def test_a_move_is_not_refused_when_the_shared_cache_is_down(settings, rf, ann):
    # A Redis restart must not turn every move into a 500: the limit opens until it is back.
    from lib.ratelimits import rate_limit_check

    settings.CACHES = {"default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens on port 1
    }}
    request = rf.post("/api/v1/games/1/moves")
    request.user = request.auth = ann
    for _ in range(3):
        assert rate_limit_check(request, "move") is None
