"""NUL characters and lone surrogates (text no database or encoder can store) are refused
with a sentence (400), whichever field of whichever entry carries them; never a 500."""

import json

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.abuse.conftest import finished_record
from tests.games_helpers import api_post, bearer

pytestmark = pytest.mark.django_db

BAD = ["nul\u0000name", "lone\ud800surrogate", "\udfff"]


def _record(name: str) -> str:
    record = finished_record()
    record["players"][1] = name
    # json.dumps writes a lone surrogate as the escape a client would send
    return json.dumps(record)


@pytest.mark.parametrize("bad", BAD)
def test_an_imported_record_naming_a_player_with_bad_text_is_refused(client, ann, bad):
    response = client.post("/api/v1/games/import", data=_record(bad),
                           content_type="application/json", **bearer(ann))
    assert response.status_code == 400, response.content
    assert "error" in response.json()
    assert not Game.objects.exists()


@pytest.mark.parametrize("bad", BAD)
def test_the_import_page_refuses_bad_text_with_a_message(client, ann, bad):
    client.force_login(ann)
    response = client.post(reverse("record_import"), {"text": _record(bad)}, follow=True)
    assert response.status_code == 200
    assert "cannot be" in response.content.decode() or "not" in response.content.decode()
    assert not Game.objects.exists()


@pytest.mark.parametrize("bad", BAD)
def test_a_move_or_a_table_with_bad_text_is_refused(client, ann, bob, cat, bad):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    auth = bearer(ann)
    for url, body in [
        (f"/api/v1/games/{game.pk}/moves", {"seq": 0, "move": {"move": "challenge",
                                                               "cards": [bad]}}),
        (f"/api/v1/games/{game.pk}/moves", {"seq": 0, "move": {"move": bad}}),
        ("/api/v1/games", {"players": 3, "time_control": {"kind": bad}}),
        ("/api/v1/games", {"players": 3, "bots": [bad]}),
    ]:
        response = api_post(client, url, json.dumps(body), auth)
        assert response.status_code == 400, (url, body, response.content)
        assert response.json()["error"]
    assert Game.objects.count() == 1 and Game.objects.get().seq == 0


@pytest.mark.parametrize("bad", [b"ann%00", b"%ED%A0%80nn"])  # NUL; a surrogate's bytes
def test_a_sign_up_with_bad_text_is_refused(client, bad):
    from accounts.models import User

    body = (b"username=" + bad + b"&email=x%40example.com&password1=fiery-bird-42-feathers"
            b"&password2=fiery-bird-42-feathers")
    response = client.post(reverse("account_signup"), body,
                           content_type="application/x-www-form-urlencoded")
    assert response.status_code in (200, 400)
    assert not User.objects.filter(username__startswith="ann").exists()
