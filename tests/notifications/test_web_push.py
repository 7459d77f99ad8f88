"""Web Push through a real push service on loopback (push_receiver.py): the server's POST
is checked (VAPID JWT) and decrypted with the browser's keys, as a browser would."""

import time

import pytest

from clocks.tasks import clocks_sweep  # noqa: F401 - the clocks app's tasks are registered
from lib import vapid
from notifications.models import PushSubscription
from notifications.notifications import notify
from tests.clocks.helpers import committed, move_random, started_game, user_at

from .push_receiver import Browser, PushService, vapid_claims

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]
API = "/api/v1/push"


@pytest.fixture
def site_key(settings):
    settings.WEBPUSH_ENABLED = True
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid.new_private_key()
    settings.WEBPUSH_VAPID_SUBJECT = "mailto:ops@blaze.example"
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1", "fcm.googleapis.com"]
    return vapid.public_key(settings.WEBPUSH_VAPID_PRIVATE_KEY)


@pytest.fixture
def service():
    with PushService() as running:
        yield running


def subscribe(client, user, browser: Browser, endpoint: str):
    client.force_login(user)
    return client.post(f"{API}/subscriptions", browser.subscription(endpoint),
                       content_type="application/json")


def test_a_correspondence_move_pushes_one_notice_to_the_next_player_in_their_language(
        site_key, service, client, ann, bob, cat):
    game = started_game([ann, bob, cat])
    browsers = {}
    for user, language in ((ann, "es"), (bob, "ja"), (cat, "es")):
        user.language = language
        user.save(update_fields=["language"])
        browsers[user.pk] = Browser()
        response = subscribe(client, user, browsers[user.pk], f"{service.origin}/{user.pk}")
        assert response.status_code == 201, response.content
    mover = game.waiting_on[0]
    while not service.received:  # the mover may move more than once before a turn passes
        game = move_random(game, game.waiting_on[0])
    [push] = service.received
    [seat] = [s for s in game.waiting_on if s != mover]
    nxt = user_at(game, seat)
    assert push["path"] == f"/{nxt.pk}"
    assert push["headers"]["content-encoding"] == "aes128gcm"
    assert push["headers"]["urgency"] == "high"
    assert int(push["headers"]["ttl"]) > 0
    claims = vapid_claims(push["headers"]["authorization"], site_key)
    assert claims["aud"] == service.origin
    assert claims["sub"] == "mailto:ops@blaze.example"
    assert time.time() < claims["exp"] <= time.time() + 24 * 3600
    shown = browsers[nxt.pk].decrypt(push["body"])
    if nxt.language == "es":
        assert shown["title"] == f"Tu turno en la partida {game.pk}"
        assert shown["body"] == f"Partida {game.pk}: es tu turno."
    else:
        assert shown["title"] == f"ゲーム {game.pk} であなたの番です"
        assert shown["body"] == f"ゲーム {game.pk}：あなたの番です。"
    assert shown["url"] == f"https://blaze.example/games/{game.pk}/"
    assert set(shown) == {"title", "body", "url", "tag"}  # words and a link, no hand


def test_a_subscription_the_push_service_calls_gone_is_dropped(site_key, service, client,
                                                                 ann, bob):
    subscribe(client, ann, Browser(), f"{service.origin}/ann")
    subscribe(client, bob, Browser(), f"{service.origin}/bob")
    service.answer = 410
    with committed():
        notify(user=ann, kind="tournament", key="news:1", text="Round 2 has started.")
    assert [r["path"] for r in service.received] == ["/ann"]
    assert list(PushSubscription.objects.values_list("user__username", flat=True)) == ["bob"]


@pytest.mark.parametrize("endpoint", [
    "https://push.evil.example/send/1",  # not a push service of the list
    "http://fcm.googleapis.com/fcm/send/1",  # listed, but plain http to a public host
    "http://10.0.0.7:8080/push",  # a private address, not listed
    "http://localhost:9/push",  # loopback, but not listed
    "https://127.0.0.1.evil.example/push",
    "https://user:pw@fcm.googleapis.com/fcm/send/1",
    "ftp://127.0.0.1/push",
    "not a url",
])
def test_an_endpoint_that_is_no_listed_push_service_is_refused(site_key, client, ann,
                                                               endpoint):
    response = subscribe(client, ann, Browser(), endpoint)
    assert response.status_code == 400
    assert response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_keys_that_are_not_a_browsers_are_refused(site_key, client, ann):
    browser = Browser()
    body = browser.subscription("https://fcm.googleapis.com/fcm/send/abc")
    client.force_login(ann)
    for keys in ({"p256dh": "AAAA", "auth": body["keys"]["auth"]},
                 {"p256dh": body["keys"]["p256dh"], "auth": "not*base64"},
                 {"p256dh": body["keys"]["p256dh"]}):
        response = client.post(f"{API}/subscriptions", {**body, "keys": keys},
                               content_type="application/json")
        assert response.status_code == 400, keys
        assert response.json()["error"]
    assert not PushSubscription.objects.exists()


def test_subscribe_again_updates_and_delete_forgets_only_ones_own(site_key, client, ann,
                                                                  bob):
    endpoint = "https://fcm.googleapis.com/fcm/send/abc"
    assert subscribe(client, ann, Browser(), endpoint).status_code == 201
    assert subscribe(client, bob, Browser(), endpoint).status_code == 201  # bob's browser now
    assert PushSubscription.objects.get().user == bob
    client.force_login(ann)
    response = client.delete(f"{API}/subscriptions", {"endpoint": endpoint},
                             content_type="application/json")
    assert response.status_code == 204
    assert PushSubscription.objects.filter(user=bob).exists()
    client.force_login(bob)
    client.delete(f"{API}/subscriptions", {"endpoint": endpoint},
                  content_type="application/json")
    assert not PushSubscription.objects.exists()


def test_the_key_needs_no_login_and_subscribing_needs_one(site_key, client):
    assert client.get(f"{API}/key").json() == {"public_key": site_key}
    response = client.post(f"{API}/subscriptions",
                           Browser().subscription("https://fcm.googleapis.com/fcm/send/x"),
                           content_type="application/json")
    assert response.status_code == 401


def test_a_site_without_a_vapid_key_says_push_is_not_set_up(settings, client, ann):
    settings.WEBPUSH_VAPID_PRIVATE_KEY = ""
    response = client.get(f"{API}/key")
    assert response.status_code == 503 and response.json()["error"]
    response = subscribe(client, ann, Browser(), "https://fcm.googleapis.com/fcm/send/x")
    assert response.status_code == 503


def test_games_waiting_together_stack_into_one_notice_that_opens_the_most_urgent(
        site_key, service, client, ann, bob, cat):
    ann.language = "es"
    ann.save(update_fields=["language"])
    browser = Browser()
    subscribe(client, ann, browser, f"{service.origin}/ann")

    def waiting_on_ann(games):
        return [g for g in games if ann in {user_at(g, s) for s in g.waiting_on}]

    games = []
    while len(waiting_on_ann(games)) < 2:
        games.append(started_game([ann, bob, cat]))
    shown = [browser.decrypt(r["body"]) for r in service.received]
    assert shown[0]["title"].startswith("Tu turno en la partida ")
    assert shown[-1] == {"title": "Tu turno en 2 partidas",
                         "body": f"Partida {waiting_on_ann(games)[-1].pk}: es tu turno.",
                         "url": "https://blaze.example/games/next/", "tag": "your_turn"}
