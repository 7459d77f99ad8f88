"""Every API request's body is read one way (games.api_body): JSON, an object, said plainly
when it is not, after authentication and before any view acts."""

import json

import pytest

from games.models import Game, Seat
from notifications.models import Notification
from notifications.preferences import notice_settings
from social.models import Challenge, Invitation
from tests.conftest import make_user
from tests.social.helpers import bearer, call, table

pytestmark = pytest.mark.django_db

HUGE = "1" * 5000  # an integer longer than Python converts
PATH_VALUES = {"game_id": "999999", "username": "nobody", "challenge_id": "999999",
               "notification_id": "999999"}


def _actions_taking_nothing(client) -> list[tuple[str, str]]:
    """(method, path) of every action the API's own schema says takes no body."""
    schema = client.get("/api/v1/openapi.json").json()
    found = []
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            if method not in ("post", "put", "patch", "delete"):
                continue
            body = operation.get("requestBody")
            schema_of = (body or {}).get("content", {}).get("application/json", {}).get(
                "schema", {})
            if body is None or schema_of.get("maxProperties") == 0:
                found.append((method.upper(), path.format(**PATH_VALUES)))
    return found


def _send(client, method, path, text, **headers):
    return getattr(client, method.lower())(path, text, content_type="application/json",
                                           **headers)


def test_every_action_that_takes_nothing_refuses_a_body_before_acting(client, ann):
    actions = _actions_taking_nothing(client)
    # join, leave, resign, mark read (all, one), block, follow (and undo both), accept,
    # decline, withdraw: the schema must keep naming them all
    assert len(actions) >= 12, actions
    token = bearer(ann)
    for method, path in actions:
        for text, words in (("garbage{", "the body is not JSON"),
                            ('{"x": 1}', "this action takes no fields"),
                            (HUGE, "the body must be a JSON object"),
                            ("[]", "the body must be a JSON object")):
            answer = _send(client, method, path, text, HTTP_AUTHORIZATION=token)
            assert answer.status_code == 400, (method, path, text, answer.content)
            assert words in answer.json()["error"], (method, path, text)


def test_who_asks_is_judged_before_what_they_send(client):
    for text in ("garbage{", '{"players": 3}'):
        answer = _send(client, "POST", "/api/v1/games", text)
        assert answer.status_code == 401
    assert not Game.objects.exists()


def test_a_body_that_is_not_utf8_json_is_refused_and_a_byte_order_mark_is_not(client, ann):
    token = bearer(ann)
    body = json.dumps({"players": 3})
    refused = client.post("/api/v1/games", body.encode("utf-16"), content_type="application/json",
                          HTTP_AUTHORIZATION=token)
    assert refused.status_code == 400
    assert refused.json()["error"] == "the body is not JSON: it is not UTF-8 text"
    assert not Game.objects.exists()
    taken = client.post("/api/v1/games", b"\xef\xbb\xbf" + body.encode(),
                        content_type="application/json", HTTP_AUTHORIZATION=token)
    assert taken.status_code == 201  # RFC 8259 8.1: a parser may ignore the mark


def test_a_number_too_long_to_read_never_passes_for_an_object(client, ann, bob, cat):
    game = Game.objects.get(pk=call(client, "POST", "/games", bearer(ann),
                                    {"players": 3}).json()["id"])
    answer = _send(client, "POST", f"/api/v1/games/{game.pk}/bots", HUGE,
                   HTTP_AUTHORIZATION=bearer(ann))
    assert answer.status_code == 400 and "a JSON object" in answer.json()["error"]
    assert not Seat.objects.filter(game=game, bot_level__isnull=False).exclude(
        bot_level="").exists()
    before = notice_settings(ann)
    for text in (HUGE, json.dumps({"channels": 7})[:-2] + HUGE + "}",
                 '{"quiet_hours": ' + HUGE + "}"):
        answer = _send(client, "PATCH", "/api/v1/notices/settings", text,
                       HTTP_AUTHORIZATION=bearer(ann))
        assert answer.status_code == 400, (text[:40], answer.content)
    assert notice_settings(ann) == before


@pytest.mark.parametrize("time_control", [{}, {"a": 1}, {"kind": "live", "minutes": 0},
                                          {"kind": "blitz"}, {"x": "\u0000"}, "live"])
def test_a_challenge_no_table_could_start_is_refused_at_once(client, ann, bob, time_control):
    answer = call(client, "POST", "/challenges", bearer(ann),
                  {"invite": ["bob"], "players": 3, "bots": ["basic"],
                   "time_control": time_control})
    assert answer.status_code == 400 and "time_control" in answer.json()["error"]
    assert not Challenge.objects.exists() and not Invitation.objects.exists()
    assert not Notification.objects.exists()


def test_a_challenge_with_a_good_time_control_keeps_it(client, ann, bob):
    answer = call(client, "POST", "/challenges", bearer(ann),
                  {"invite": ["bob"], "players": 3, "bots": ["basic"],
                   "time_control": {"kind": "correspondence", "days": 3}})
    assert answer.status_code == 201, answer.content
    assert Challenge.objects.get().time_control == {"kind": "correspondence", "days": 3}


def test_a_notice_mark_read_says_when_there_is_no_such_notice_of_yours(client, ann, bob):
    game = table(ann, [bob, make_user("cat")])
    mine = Notification.objects.create(user=ann, game=game, kind=Notification.YOUR_TURN,
                                       key="t1", text="your turn")
    theirs = Notification.objects.create(user=bob, game=game, kind=Notification.YOUR_TURN,
                                         key="t2", text="your turn")
    token = bearer(ann)
    for _ in range(2):  # read, then read already: the same answer
        assert call(client, "POST", f"/notices/{mine.pk}/read", token).status_code == 204
    for notice_id in (theirs.pk, 999999, 0):
        answer = call(client, "POST", f"/notices/{notice_id}/read", token)
        assert answer.status_code == 404 and answer.json()["error"] == "no such notice of yours"
    assert call(client, "POST", "/notices/1.0/read", token).status_code == 404
    theirs.refresh_from_db()
    assert theirs.read is False


def test_push_refuses_an_endpoint_holding_a_nul_and_keeps_nothing(settings, client, ann):
    from lib import vapid
    from notifications.models import PushSubscription

    settings.WEBPUSH_ENABLED = True
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid.new_private_key()
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@blaze.example"
    settings.WEBPUSH_ENDPOINT_HOSTS = ["fcm.googleapis.com"]
    keys = {"p256dh": "B" + "A" * 86, "auth": "A" * 22}
    answer = call(client, "POST", "/push/subscriptions", bearer(ann),
                  {"endpoint": "https://fcm.googleapis.com/fcm/send/a\u0000b", "keys": keys})
    assert answer.status_code == 400 and answer.json()["error"] == "endpoint is not a URL"
    gone = call(client, "DELETE", "/push/subscriptions", bearer(ann), {"endpoint": "\u0000"})
    assert gone.status_code < 500
    assert not PushSubscription.objects.exists()


def test_a_missing_body_and_missing_credentials_are_said_plainly(client, ann):
    answer = client.post("/api/v1/games", "", content_type="application/json",
                         HTTP_AUTHORIZATION=bearer(ann))
    assert answer.status_code == 400
    assert answer.json()["error"] == "the body is missing: send a JSON object"
    for headers in ({}, {"HTTP_AUTHORIZATION": "Bearer blz_wrong"},
                    {"HTTP_AUTHORIZATION": "Basic YTpi"}):
        refused = client.get("/api/v1/me", **headers)
        assert refused.status_code == 401
        assert refused.json()["error"] == ("no valid credentials: sign in, or send "
                                           "Authorization: Bearer <token>")


def test_a_record_fault_in_a_deal_names_its_round_once(client, ann):
    from tests.games_helpers import api_post

    record = {"format": "blaze-record/1", "players": ["a", "b", "c"],
              "rounds": [{"hands": [[], [], []], "deck": [], "start": 9, "moves": []}]}
    answer = api_post(client, "/api/v1/games/import", record, {"HTTP_AUTHORIZATION": bearer(ann)})
    assert answer.status_code == 400
    assert answer.json()["error"].count("round 1") == 1, answer.json()


@pytest.mark.parametrize("lang,body,said", [
    ("en", {"players": 9}, "players: must be at most 5"),
    ("ja", {"players": 9}, "players: 5 以下でなければなりません"),
    ("es", {"players": 2}, "players: debe ser como mínimo 3"),
    ("ja", {"players": "3"}, "players: 整数でなければなりません"),
    ("es", {"players": 3, "rated": "yes"}, "rated: debe ser true o false"),
    ("ja", {"players": 3, "bots": ["nope"]}, "bots.0: 次のいずれかでなければなりません"),
])
def test_a_fields_fault_is_said_in_the_requests_language(client, ann, lang, body, said):
    answer = call(client, "POST", "/games", bearer(ann), body, HTTP_ACCEPT_LANGUAGE=lang)
    assert answer.status_code == 400
    assert answer.json()["error"].startswith(said), answer.json()["error"]
    assert not Game.objects.exists()
