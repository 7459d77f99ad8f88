"""Resigning: POST /api/v1/games/{id}/resign hands the seat to the built-in bot, and the
player who left ranks last in the result, the ratings and on the pages."""

import pytest
from django.urls import reverse

from accounts.services import bots_create
from games.models import Game, Move, Seat
from ratings.models import Rating, RatingChange
from tests.games_helpers import api_get, api_post, bearer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_bot_pause(settings):
    settings.BOT_PAUSE_SECONDS = 0


def _rated_game_against_bots(client, ann) -> tuple[int, dict]:
    bots_create()  # bots are rated users
    auth = bearer(ann)
    created = api_post(client, "/api/v1/games",
                       {"players": 4, "rated": True, "bots": ["random", "basic", "strong"]}, auth)
    assert created.status_code == 201, created.json()
    return created.json()["id"], auth


def test_a_player_who_resigns_ranks_last_whatever_the_bot_scores(
        client, ann, django_capture_on_commit_callbacks):
    game_id, auth = _rated_game_against_bots(client, ann)
    with django_capture_on_commit_callbacks(execute=True):
        answer = api_post(client, f"/api/v1/games/{game_id}/resign", "", auth)
    assert answer.status_code == 200, answer.json()
    view = answer.json()
    seat = view["you"]
    assert view["players"][seat]["abandoned"] is True

    game = Game.objects.get(pk=game_id)
    assert game.status == Game.FINISHED  # the built-in bot played the seat to the end
    assert Seat.objects.get(game=game, user=ann).bot_level == Seat.TAKEOVER_BOT_LEVEL
    assert Move.objects.filter(game=game, seat=seat).exists()

    view = api_get(client, f"/api/v1/games/{game_id}", auth).json()
    assert view["final_ranking"][-1] == seat
    assert sorted(view["final_ranking"]) == sorted(view["ranking"])

    change = RatingChange.objects.get(game=game, user=ann)
    assert change.rank == 4 and change.after < change.before == 1000
    assert Rating.objects.get(user=ann).displayed < 1000

    client.force_login(ann)
    page = client.get(reverse("game_table", args=[game_id])).content.decode()
    assert '"final_ranking": [' in page and '"abandoned": true' in page
    Rating.objects.filter(user=ann).update(established=True)  # the board lists only these
    board = client.get(reverse("leaderboard"), {"min": "0"}).content.decode()
    board = board[board.index("<tbody>"):]
    for bot in ("Random bot", "Strong bot"):  # the bots that stayed rank above ann
        assert board.index(f">{bot}<") < board.index(">ann<")


def test_resigning_accepts_an_empty_object_and_nothing_else(client, ann):
    game_id, auth = _rated_game_against_bots(client, ann)
    for body, words in (('{"really": true}', "send {} or nothing"), ("[]", "a JSON object"),
                        ("nonsense", "not JSON"), ("0", "a JSON object")):
        refused = api_post(client, f"/api/v1/games/{game_id}/resign", body, auth)
        assert refused.status_code == 400 and words in refused.json()["error"]
    assert not Seat.objects.filter(game_id=game_id, abandoned=True).exists()
    answer = api_post(client, f"/api/v1/games/{game_id}/resign", {}, auth)
    assert answer.status_code == 200
    again = api_post(client, f"/api/v1/games/{game_id}/resign", {}, auth)
    assert again.status_code == 403 and again.json() == {"error": "you have already left this game"}


def test_only_a_seated_player_of_a_game_being_played_can_resign(client, ann, bob):
    game_id, _ = _rated_game_against_bots(client, ann)
    stranger = api_post(client, f"/api/v1/games/{game_id}/resign", {}, bearer(bob))
    assert stranger.status_code == 403
    assert stranger.json() == {"error": "you are not a player of this game"}
    missing = api_post(client, "/api/v1/games/999999/resign", {}, bearer(bob))
    assert missing.status_code == 404 and missing.json() == {"error": "no such game"}

    waiting = api_post(client, "/api/v1/games", {"players": 3}, bearer(bob)).json()["id"]
    early = api_post(client, f"/api/v1/games/{waiting}/resign", {}, bearer(bob))
    assert early.status_code == 403 and "leave the table instead" in early.json()["error"]
    assert not Seat.objects.filter(abandoned=True).exists()


def test_resigning_is_documented_in_the_openapi_schema(client):
    schema = client.get("/api/v1/openapi.json").json()
    operation = schema["paths"]["/api/v1/games/{game_id}/resign"]["post"]
    assert "rank last" in operation["summary"]
    assert {"200", "400", "403", "404"} <= set(operation["responses"])
    assert operation["requestBody"]["required"] is False


def test_who_resigns_watches_at_once_no_hand_no_moves_and_the_bot_is_not_you(client, ann):
    import random

    from games import services
    from tests.games_helpers import random_legal_move

    game_id, auth = _rated_game_against_bots(client, ann)
    answer = api_post(client, f"/api/v1/games/{game_id}/resign", {}, auth).json()
    seat = answer["you"]
    assert "hand" not in answer and "options" not in answer  # a spectator's view
    assert answer["players"][seat]["name"] == "Basic bot for ann"
    # the bot plays the seat (its turn comes; other bots' moves are made here too)
    rng = random.Random(2)
    said = []
    for _ in range(12):
        game = Game.objects.get(pk=game_id)
        if game.status != Game.PLAYING:
            break
        mover = game.waiting_on[0]
        if mover == seat:
            refused = api_post(client, f"/api/v1/games/{game_id}/moves",
                               {"seq": game.seq, "move": random_legal_move(game, seat, rng)},
                               auth)
            assert refused.status_code == 403, refused.json()
            assert "left this game" in refused.json()["error"]
        services.move_play(game_id=game_id, user=None, seq=game.seq, bot_seat=mover,
                           move=random_legal_move(game, mover, rng), queue_bots=False)
        view = api_get(client, f"/api/v1/games/{game_id}", auth).json()
        assert "hand" not in view and "options" not in view
        said += [line["text"] for line in view["log"]]
    whole = api_get(client, f"/api/v1/games/{game_id}/log", auth).json()["lines"]
    text = " ".join(line["text"] for line in whole)
    assert said and "You " not in text and "Basic bot for ann" in text
