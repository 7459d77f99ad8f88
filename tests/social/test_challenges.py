"""Invitations to a table: the table starts once every invited player has accepted."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games.models import Game
from notifications.models import Notification
from social.challenges import challenges_expire
from social.models import Challenge
from tests.social.helpers import bearer, call

pytestmark = pytest.mark.django_db


def _invite(client, sender, body):
    return call(client, "POST", "/challenges", bearer(sender), body)


def test_an_invitation_with_a_bot_seat_starts_when_the_invited_player_accepts(client, ann,
                                                                               bob):
    r = _invite(client, ann, {"invite": ["bob"], "players": 3, "bots": ["basic"]})
    assert r.status_code == 201, r.content
    invitation = r.json()
    assert invitation["status"] == "open" and invitation["invited"] == [
        {"name": "bob", "answer": "pending"}]
    # bob hears it through the one notify path
    note = Notification.objects.get(user=bob)
    assert "ann invites you to a table of 3" in note.text
    seen = call(client, "GET", "/challenges", bearer(bob)).json()["challenges"]
    assert [c["id"] for c in seen] == [invitation["id"]]
    r = call(client, "POST", f"/challenges/{invitation['id']}/accept", bearer(bob))
    assert r.status_code == 200, r.content
    assert r.json()["status"] == "started"
    game = Game.objects.get(pk=r.json()["game"])
    assert game.status == Game.PLAYING and game.private
    seated = sorted((s.user.username if s.user else s.bot_level) for s in game.seats.all())
    assert seated == ["ann", "basic", "bob"]
    assert Notification.objects.filter(user=ann, game=game).exists()


def test_the_table_waits_for_every_invited_player(client, ann, bob, cat):
    r = _invite(client, ann, {"invite": ["bob", "cat"], "players": 4, "bots": ["random"]})
    cid = r.json()["id"]
    assert call(client, "POST", f"/challenges/{cid}/accept", bearer(bob)).json()[
        "status"] == "open"
    assert not Game.objects.exists()
    assert call(client, "POST", f"/challenges/{cid}/accept", bearer(cat)).json()[
        "status"] == "started"
    assert Game.objects.get().seats.count() == 4


def test_a_decline_ends_the_invitation_and_the_sender_hears_it(client, ann, bob, cat):
    cid = _invite(client, ann, {"invite": ["bob", "cat"], "players": 3}).json()["id"]
    assert call(client, "POST", f"/challenges/{cid}/decline", bearer(bob)).json()[
        "status"] == "declined"
    r = call(client, "POST", f"/challenges/{cid}/accept", bearer(cat))
    assert r.status_code == 403 and "declined" in r.json()["error"]
    assert "bob declined" in Notification.objects.get(user=ann).text
    assert not Game.objects.exists()


def test_an_invitation_expires(client, ann, bob):
    cid = _invite(client, ann, {"invite": ["bob"], "players": 3, "bots": ["basic"]}).json()["id"]
    Challenge.objects.filter(pk=cid).update(expires=timezone.now() - timedelta(seconds=1))
    r = call(client, "POST", f"/challenges/{cid}/accept", bearer(bob))
    assert r.status_code == 403 and "expired" in r.json()["error"]
    assert challenges_expire() == 1 and challenges_expire() == 0
    assert Challenge.objects.get(pk=cid).status == Challenge.EXPIRED
    assert not Game.objects.exists()


def test_only_the_invited_may_answer_and_only_the_sender_withdraw(client, ann, bob, cat):
    cid = _invite(client, ann, {"invite": ["bob"], "players": 3, "bots": ["basic"]}).json()["id"]
    assert call(client, "POST", f"/challenges/{cid}/accept", bearer(cat)).status_code == 404
    assert call(client, "DELETE", f"/challenges/{cid}", bearer(bob)).status_code == 404
    assert call(client, "DELETE", f"/challenges/{cid}", bearer(ann)).status_code == 204
    assert call(client, "POST", f"/challenges/{cid}/accept", bearer(bob)).status_code == 403


@pytest.mark.parametrize("body,status,words", [
    ({"invite": ["bob"], "players": 4, "bots": []}, 400, "fill the 4 seats"),
    ({"invite": ["ann"], "players": 3, "bots": ["basic"]}, 400, "yourself"),
    ({"invite": ["nobody"], "players": 3, "bots": ["basic"]}, 404, "nobody"),
    ({"invite": ["bob"], "players": 3, "bots": ["genius"]}, 400, "genius"),
    ({"invite": ["bob"], "players": 6, "bots": []}, 400, "players"),
])
def test_a_bad_invitation_is_refused_and_nothing_is_sent(client, ann, bob, body, status,
                                                         words):
    r = _invite(client, ann, body)
    assert r.status_code == status and words in r.json()["error"], r.content
    assert not Challenge.objects.exists() and not Notification.objects.exists()


def test_listing_invitations_costs_the_same_queries_for_few_and_many(
        client, ann, bob, django_assert_max_num_queries):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    token = bearer(bob)

    def count():
        call(client, "GET", "/challenges", token)  # the token remembered (new rows forget it)
        with CaptureQueriesContext(connection) as ctx:
            assert call(client, "GET", "/challenges", token).status_code == 200
        return len(ctx.captured_queries)

    _invite(client, ann, {"invite": ["bob"], "players": 3, "bots": ["basic"]})
    few = count()
    for _ in range(8):
        _invite(client, ann, {"invite": ["bob"], "players": 3, "bots": ["basic"]})
    assert count() == few


def test_expiring_costs_one_query_whatever_the_number(ann, bob, django_assert_num_queries):
    from social.challenges import challenge_create

    for n in (1, 6):
        for _ in range(n):
            c = challenge_create(sender=ann, usernames=["bob"], players=3, bots=["basic"])
            Challenge.objects.filter(pk=c.pk).update(expires=timezone.now())
        with django_assert_num_queries(1):
            assert challenges_expire() == n
