import json
import random

import pytest
from django.core.management import call_command

from games.engine import import_record
from games.models import Game, Move
from tests.games_helpers import api_get, api_post, bearer, random_legal_move

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(client, ann, bob, cat, dan):
    """A started four-player game: ann created it, bob, cat and dan joined."""
    auth = {u: bearer(u) for u in (ann, bob, cat, dan)}
    created = api_post(client, "/api/v1/games", {"players": 4}, auth[ann])
    assert created.status_code == 201
    game_id = created.json()["id"]
    for user in (bob, cat, dan):
        assert api_post(client, f"/api/v1/games/{game_id}/join", {}, auth[user]).status_code == 200
    game = Game.objects.get(pk=game_id)
    assert game.status == Game.PLAYING
    by_seat = {s.index: s.user for s in game.seats.all()}
    return game_id, auth, by_seat


def _play_one(client, game_id, auth, by_seat, rng):
    game = Game.objects.get(pk=game_id)
    seat = game.waiting_on[0]
    move = random_legal_move(game, seat, rng)
    response = api_post(client, f"/api/v1/games/{game_id}/moves",
                        {"seq": game.seq, "move": move}, auth[by_seat[seat]])
    assert response.status_code == 200, response.json()
    return response.json()


def test_four_players_with_tokens_play_a_whole_game_and_its_record_replays(
        client, table, tmp_path):
    game_id, auth, by_seat = table
    rng = random.Random(7)
    view = None
    for _ in range(2000):
        view = _play_one(client, game_id, auth, by_seat, rng)
        if view["status"] == "finished":
            break
    assert view["status"] == "finished" and view["finished"]
    game = Game.objects.get(pk=game_id)
    assert game.result["ranking"] == view["ranking"]
    assert Move.objects.filter(game=game).count() == game.seq == view["seq"]

    record = api_get(client, f"/api/v1/games/{game_id}/record", auth[by_seat[0]])
    assert record.status_code == 200
    replayed = import_record(record.json())
    assert replayed.scores == game.result["scores"]
    assert replayed.ranking == game.result["ranking"]

    path = tmp_path / "game.jsonl"
    path.write_text(json.dumps(record.json()) + "\n")
    out = tmp_path / "out.txt"
    with out.open("w") as fh:
        call_command("blaze_replay", str(path), stdout=fh)
    line = json.loads(out.read_text())
    assert line["ok"] and line["scores"] == game.result["scores"]
    assert line["ranking"] == game.result["ranking"]


def test_views_answer_each_user_with_their_own_seat(client, table):
    game_id, auth, by_seat = table
    for seat, user in by_seat.items():
        view = api_get(client, f"/api/v1/games/{game_id}", auth[user]).json()
        assert view["you"] == seat and len(view["hand"]) == 5
        assert [p["hand_size"] for p in view["players"]] == [5, 5, 5, 5]
        assert ("options" in view) == (seat in view["waiting_on"])


def test_a_stranger_gets_the_spectator_view_without_hands(client, table, eve):
    game_id, _, _ = table
    view = api_get(client, f"/api/v1/games/{game_id}", bearer(eve)).json()
    assert view["you"] is None and "hand" not in view and "options" not in view
    assert "deal" not in json.dumps(view)


def test_an_illegal_move_answers_400_with_a_sentence_and_changes_nothing(client, table):
    game_id, auth, by_seat = table
    game = Game.objects.get(pk=game_id)
    seat = game.waiting_on[0]
    response = api_post(client, f"/api/v1/games/{game_id}/moves",
                        {"seq": 0, "move": {"move": "pass"}}, auth[by_seat[seat]])
    assert response.status_code == 400
    assert "cannot pass" in response.json()["error"]
    game.refresh_from_db()
    assert game.seq == 0 and Move.objects.filter(game=game).count() == 0


def test_a_move_naming_its_seat_is_malformed(client, table):
    game_id, auth, by_seat = table
    seat = Game.objects.get(pk=game_id).waiting_on[0]
    response = api_post(client, f"/api/v1/games/{game_id}/moves",
                        {"seq": 0, "move": {"move": "pass", "seat": seat}}, auth[by_seat[seat]])
    assert response.status_code == 400 and "seat" in response.json()["error"]


def test_a_move_naming_its_seat_from_a_stranger_or_at_a_stale_seq_answers_403_or_409(
        client, table, eve):
    # API.md's 403 (not a player) and 409 (not the current seq) hold whatever the move says
    game_id, auth, by_seat = table
    seat = Game.objects.get(pk=game_id).waiting_on[0]
    named = {"move": "pass", "seat": seat}
    stranger = api_post(client, f"/api/v1/games/{game_id}/moves",
                        {"seq": 0, "move": named}, bearer(eve))
    assert stranger.status_code == 403
    stale = api_post(client, f"/api/v1/games/{game_id}/moves",
                     {"seq": 99, "move": named}, auth[by_seat[seat]])
    assert stale.status_code == 409 and stale.json()["seq"] == 0
    assert Game.objects.get(pk=game_id).seq == 0


def test_a_stale_seq_answers_409_with_the_current_seq(client, table):
    game_id, auth, by_seat = table
    _play_one(client, game_id, auth, by_seat, random.Random(1))
    game = Game.objects.get(pk=game_id)
    seat = game.waiting_on[0]
    move = random_legal_move(game, seat, random.Random(2))
    response = api_post(client, f"/api/v1/games/{game_id}/moves",
                        {"seq": 0, "move": move}, auth[by_seat[seat]])
    assert response.status_code == 409
    assert response.json()["seq"] == 1 and response.json()["error"]


def test_the_same_seq_twice_applies_once(client, table):
    game_id, auth, by_seat = table
    game = Game.objects.get(pk=game_id)
    seat = game.waiting_on[0]
    move = random_legal_move(game, seat, random.Random(3))
    body = {"seq": 0, "move": move}
    first = api_post(client, f"/api/v1/games/{game_id}/moves", body, auth[by_seat[seat]])
    second = api_post(client, f"/api/v1/games/{game_id}/moves", body, auth[by_seat[seat]])
    assert (first.status_code, second.status_code) == (200, 409)
    assert Move.objects.filter(game_id=game_id).count() == 1


def test_another_seat_cannot_move_and_a_stranger_is_forbidden(client, table, eve):
    game_id, auth, by_seat = table
    game = Game.objects.get(pk=game_id)
    waited = game.waiting_on[0]
    other = next(s for s in by_seat if s != waited)
    move = random_legal_move(game, waited, random.Random(4))
    wrong_seat = api_post(client, f"/api/v1/games/{game_id}/moves",
                          {"seq": 0, "move": move}, auth[by_seat[other]])
    assert wrong_seat.status_code == 400 and "waits on seat" in wrong_seat.json()["error"]
    stranger = api_post(client, f"/api/v1/games/{game_id}/moves",
                        {"seq": 0, "move": move}, bearer(eve))
    assert stranger.status_code == 403 and stranger.json()["error"]
    assert Game.objects.get(pk=game_id).seq == 0


def test_unknown_game_answers_404(client, ann):
    auth = bearer(ann)
    assert api_get(client, "/api/v1/games/999999", auth).status_code == 404
    response = api_post(client, "/api/v1/games/999999/moves",
                        {"seq": 0, "move": {"move": "pass"}}, auth)
    assert response.status_code == 404 and response.json()["error"]


def test_malformed_json_and_bad_bodies_answer_400_with_an_error(client, table):
    game_id, auth, by_seat = table
    user = by_seat[0]
    for body in ['{"seq": 0, "move": ', '{"move": {"move": "pass"}}', '{"seq": "0", "move": {}}',
                 '[1, 2]']:
        response = api_post(client, f"/api/v1/games/{game_id}/moves", body, auth[user])
        assert response.status_code == 400, body
        assert isinstance(response.json()["error"], str)
    response = api_post(client, "/api/v1/games", {"players": 7}, auth[user])
    assert response.status_code == 400 and "players" in response.json()["error"]


def test_no_credentials_answer_401(client, table):
    game_id, _, _ = table
    assert client.get(f"/api/v1/games/{game_id}").status_code == 401
    assert api_post(client, f"/api/v1/games/{game_id}/moves",
                    {"seq": 0, "move": {"move": "pass"}}).status_code == 401
    assert api_post(client, "/api/v1/games", {"players": 3}).status_code == 401
    bad = api_get(client, f"/api/v1/games/{game_id}", {"HTTP_AUTHORIZATION": "Bearer blz_nope"})
    assert bad.status_code == 401


def test_the_record_is_forbidden_while_the_game_is_played(client, table):
    game_id, auth, by_seat = table
    response = api_get(client, f"/api/v1/games/{game_id}/record", auth[by_seat[0]])
    assert response.status_code == 403 and response.json()["error"]
    assert api_get(client, f"/api/v1/games/{game_id}/replay", auth[by_seat[0]]).status_code == 403


def test_the_lobby_lists_open_tables_and_my_games(client, ann, bob):
    api_post(client, "/api/v1/games", {"players": 3}, bearer(ann))
    api_post(client, "/api/v1/games", {"players": 3, "private": True}, bearer(ann))
    lobby = api_get(client, "/api/v1/games", bearer(bob)).json()
    assert len(lobby["open"]) == 1 and lobby["mine"] == []
    mine = api_get(client, "/api/v1/games", bearer(ann)).json()["mine"]
    assert len(mine) == 2 and all(g["you"] == 0 for g in mine)


def test_the_openapi_schema_documents_the_games_endpoints(client):
    schema = client.get("/api/v1/openapi.json").json()
    for path in ("/api/v1/games", "/api/v1/games/{game_id}", "/api/v1/games/{game_id}/moves",
                 "/api/v1/games/{game_id}/join", "/api/v1/games/{game_id}/record"):
        assert path in schema["paths"], path


def test_the_schema_states_the_move_cap_and_the_invite_header(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert "**Move cap" in schema["info"]["description"]
    assert "5,000 moves" in schema["info"]["description"]
    params = schema["paths"]["/api/v1/games/{game_id}"]["get"]["parameters"]
    assert {"in": "header", "name": "Blaze-Invite"} in [
        {"in": p["in"], "name": p["name"]} for p in params]
