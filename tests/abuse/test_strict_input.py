"""Strict input: the API refuses what it does not understand, and always answers JSON."""

import pytest

from games import services
from games.models import Game, Seat
from tests.games_helpers import api_post, bearer

pytestmark = pytest.mark.django_db


def test_an_unknown_field_is_refused_naming_it_and_no_table_is_made(client, ann):
    response = api_post(client, "/api/v1/games", {"players": 3, "privat": True}, bearer(ann))
    assert response.status_code == 400
    assert "privat" in response.json()["error"]
    assert not Game.objects.exists()


def test_an_unknown_field_beside_a_move_is_refused(client, ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    response = api_post(client, f"/api/v1/games/{game.pk}/moves",
                        {"seq": 0, "move": {"move": "pass"}, "sneaky": 1}, bearer(ann))
    assert response.status_code == 400 and "sneaky" in response.json()["error"]
    game.refresh_from_db()
    assert game.seq == 0


@pytest.mark.parametrize("body", ["[]", '"strong"', "1", "null", '["strong"]'])
def test_a_body_that_is_not_an_object_seats_no_bot(client, ann, body):
    game = services.game_create(creator=ann, players=3)
    response = api_post(client, f"/api/v1/games/{game.pk}/bots", body, bearer(ann))
    assert 400 <= response.status_code < 500
    assert "error" in response.json()
    assert not Seat.objects.filter(game=game, bot_level__isnull=False).exists()


def test_an_unknown_api_address_answers_json_404(client, ann):
    response = client.get("/api/v1/nowhere", **bearer(ann))
    assert response.status_code == 404
    assert response["Content-Type"].startswith("application/json")
    assert response.json()["error"]


def test_a_wrong_method_answers_json_405(client, ann):
    response = client.delete("/api/v1/games", **bearer(ann))
    assert response.status_code == 405
    assert response.json()["error"] and "GET" in response["Allow"]


def test_a_browser_post_without_its_csrf_token_answers_json_403(ann):
    from django.test import Client

    browser = Client(enforce_csrf_checks=True)
    browser.force_login(ann)
    response = browser.post("/api/v1/games", data='{"players": 3}',
                            content_type="application/json")
    assert response.status_code == 403
    assert "CSRF" in response.json()["error"]
    assert not Game.objects.exists()


def test_a_server_failure_answers_json_500(ann, monkeypatch):
    from django.test import Client

    def broken(**kwargs):
        raise RuntimeError("the database caught fire")

    monkeypatch.setattr(services, "game_create", broken)
    response = Client(raise_request_exception=False).post(
        "/api/v1/games", data='{"players": 3}', content_type="application/json",
        **bearer(ann))
    assert response.status_code == 500
    assert response.json() == {"error": "the server failed; please try again"}


def test_an_invite_code_in_any_alphabet_is_just_a_wrong_code(client, ann, bob):
    game = services.game_create(creator=ann, players=3, private=True)
    auth = bearer(bob)
    assert client.get(f"/api/v1/games/{game.pk}?invite=%C3%85%F1%9A%A8%BE", **auth
                      ).status_code == 404
    response = api_post(client, f"/api/v1/games/{game.pk}/join?invite=%C3%85", {}, auth)
    assert response.status_code in (403, 404) and response.json()["error"]
    assert not game.seats.filter(user=bob).exists()
