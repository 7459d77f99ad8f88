"""The pages: the talk panel at the table, friends, "Live now", and the staff's reports."""

import pytest
from allauth.mfa.totp.internal.auth import TOTP, generate_totp_secret
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications.models import Notification
from social import reports
from social.models import Block, ChatMessage, Follow, Report
from tests.conftest import make_user
from tests.social.helpers import bearer, call, table

pytestmark = pytest.mark.django_db


def test_the_table_shows_the_phrasebook_in_the_players_language(client, ann, bob, cat):
    ann.language = "ja"
    ann.save()
    game = table(ann, [bob, cat])
    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'id="talk"' in page and "頑張って！" in page and 'data-phrase="good_luck"' in page
    assert 'id="talk-form"' in page  # a member writes free text


def test_a_guest_at_the_table_gets_phrases_and_no_text_box(client, ann, bob):
    guest = make_user("guest7", is_guest=True)
    game = table(ann, [bob, guest])
    client.force_login(guest)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-phrase="thanks"' in page and 'id="talk-form"' not in page


def test_a_visitor_watching_sees_the_spectators_talk_and_is_asked_to_log_in(client, ann, bob,
                                                                           cat):
    game = table(ann, [bob, cat])
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert "Spectators talk among themselves" in page and "data-phrase" not in page


def test_the_friends_page_lists_friends_invitations_and_blocks(client, ann, bob, cat, dan):
    Follow.objects.create(follower=ann, followed=bob)
    Block.objects.create(blocker=ann, blocked=dan)
    call(client, "POST", "/challenges", bearer(cat),
         {"invite": ["ann"], "players": 3, "bots": ["basic"]})
    client.force_login(ann)
    page = client.get("/friends/").content.decode()
    assert "Stop following bob" in page and "Unblock dan" in page
    assert "cat: a table of 3" in page and 'value="accept"' in page


def test_following_blocking_and_inviting_through_the_page(client, ann, bob, cat):
    client.force_login(ann)
    client.post("/friends/follow/", {"username": "bob"})
    client.post("/friends/block/", {"username": "cat"})
    r = client.post("/friends/follow/", {"username": "nobody"}, follow=True)
    assert "no player called" in r.content.decode()
    assert Follow.objects.filter(follower=ann, followed=bob).exists()
    assert Block.objects.filter(blocker=ann, blocked=cat).exists()
    client.post("/friends/invite/", {"usernames": "bob", "players": "3", "bot_level": "basic"})
    client.force_login(bob)
    challenge_id = call(client, "GET", "/challenges", bearer(bob)).json()["challenges"][0]["id"]
    r = client.post(f"/friends/invitations/{challenge_id}/", {"answer": "accept"})
    assert r.status_code == 302 and r["Location"].startswith("/games/")


def test_live_now_shows_the_friends_games_being_played(client, ann, bob, cat, dan):
    Follow.objects.create(follower=ann, followed=bob)
    game = table(bob, [cat, dan])
    client.force_login(ann)
    page = client.get("/").content.decode()
    assert "Your friends play now" in page and f"/games/{game.pk}/" in page
    client.force_login(cat)
    assert "Your friends play now" not in client.get("/").content.decode()


def test_the_friends_page_costs_the_same_queries_for_few_and_many(client, ann):
    client.force_login(ann)

    def grow(n, prefix):
        for i in range(n):
            friend = make_user(f"{prefix}{i}")
            Follow.objects.create(follower=ann, followed=friend)
            Block.objects.create(blocker=ann, blocked=make_user(f"{prefix}b{i}"))
            table(friend, [make_user(f"{prefix}x{i}"), make_user(f"{prefix}y{i}")])

    def count():
        client.get("/friends/")
        with CaptureQueriesContext(connection) as ctx:
            assert client.get("/friends/").status_code == 200
        return len(ctx.captured_queries)

    grow(1, "a")
    few = count()
    grow(5, "b")
    assert count() == few


@pytest.fixture
def staff_client(client):
    staff = make_user("sam", is_staff=True)
    TOTP.activate(staff, generate_totp_secret())
    client.force_login(staff)
    return client


def _reported(ann, bob, cat):
    game = table(ann, [bob, cat])
    message = ChatMessage.objects.create(game=game, seq=1, sender=bob, channel="players",
                                         text="rude")
    for who in (ann, cat):
        reports.report_create(user=who, reason="rude", game_id=game.pk, seq=1)
    return game, message


def test_staff_see_reports_and_warn_mute_or_deactivate(staff_client, ann, bob, cat):
    game, message = _reported(ann, bob, cat)
    page = staff_client.get("/staff/reports/").content.decode()
    assert "ann reports bob" in page and "hidden until reviewed" in page
    report = Report.objects.filter(reporter=ann).get()
    staff_client.post("/staff/reports/", {"report": report.pk, "action": "mute", "hours": 2})
    assert Report.objects.filter(handled_at__isnull=True).count() == 0  # both settled
    r = call(staff_client, "POST", f"/games/{game.pk}/chat", bearer(bob), {"phrase": "thanks"})
    assert r.status_code == 403 and "muted you" in r.json()["error"]
    message.refresh_from_db()
    assert message.hidden and message.reviewed
    other = Report.objects.create(reporter=ann, reported=bob, reason="cheats")
    staff_client.post("/staff/reports/", {"report": other.pk, "action": "warn"})
    assert Notification.objects.filter(user=bob, key=f"warning:{other.pk}").exists()
    last = Report.objects.create(reporter=ann, reported=bob, reason="again")
    staff_client.post("/staff/reports/", {"report": last.pk, "action": "deactivate"})
    bob.refresh_from_db()
    assert not bob.is_active


def test_a_dismissed_report_shows_the_message_again(staff_client, ann, bob, cat):
    game, message = _reported(ann, bob, cat)
    report = Report.objects.filter(reporter=ann).get()
    staff_client.post("/staff/reports/", {"report": report.pk, "action": "dismiss"})
    message.refresh_from_db()
    assert not message.hidden and message.reviewed
    # reviewed: more reports do not hide it again
    reports.report_create(user=make_user("dan"), reason="x", game_id=game.pk, seq=1)
    message.refresh_from_db()
    assert not message.hidden


def test_the_reports_page_is_for_staff_only(client, ann):
    client.force_login(ann)
    assert client.get("/staff/reports/").status_code == 302
    assert client.post("/staff/reports/", {"report": 1, "action": "deactivate"}
                       ).status_code == 302
    ann.refresh_from_db()
    assert ann.is_active


def test_the_reports_page_costs_the_same_queries_for_few_and_many(staff_client, ann, bob,
                                                                  cat):
    _reported(ann, bob, cat)

    def count():
        staff_client.get("/staff/reports/")
        with CaptureQueriesContext(connection) as ctx:
            assert staff_client.get("/staff/reports/").status_code == 200
        return len(ctx.captured_queries)

    few = count()
    for i in range(6):
        Report.objects.create(reporter=ann, reported=make_user(f"r{i}"), reason="x")
    assert count() == few
