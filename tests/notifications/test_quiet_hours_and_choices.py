"""What a player chose about notices: quiet hours hold push and mail and one summary
follows when they end; each kind goes by push, e-mail, both or none; bad choices are
refused with 400 and change nothing. Push goes to a real push service on loopback
(push_receiver.py), mail to Django's outbox."""

import random
from datetime import time, timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.models import User
from games import selectors, services
from games.engine import legal_moves
from games.selectors import game_state
from lib import vapid
from notifications.models import Notification
from notifications.notifications import notify
from notifications.preferences import notice_settings_set
from notifications.quiet import notices_release
from tests.clocks.helpers import committed, move_random, started_game, user_at
from tests.conftest import make_user

from .push_receiver import Browser, PushService

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


@pytest.fixture
def site_key(settings):
    settings.WEBPUSH_ENABLED = True
    settings.WEBPUSH_VAPID_PRIVATE_KEY = vapid.new_private_key()
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1"]


@pytest.fixture
def service():
    with PushService() as running:
        yield running


def subscribed(client, user, service) -> Browser:
    browser = Browser()
    client.force_login(user)
    response = client.post("/api/v1/push/subscriptions",
                           browser.subscription(f"{service.origin}/{user.username}"),
                           content_type="application/json")
    assert response.status_code == 201, response.content
    return browser


def quiet_now(user, *, before=timedelta(hours=1), after=timedelta(hours=2)):
    """Quiet hours around this moment in the player's zone (UTC here): they may cross
    midnight, which is the point of some of these tests."""
    now = timezone.now()
    notice_settings_set(user=user, timezone="UTC",
                        quiet_start=(now - before).strftime("%H:%M"),
                        quiet_end=(now + after).strftime("%H:%M"))


def tell(user, n: int, kind="tournament"):
    with committed():
        return notify(user=user, kind=kind, key=f"{kind}:{user.pk}:{n}", text=f"News {n}.")


def test_quiet_hours_hold_every_push_and_mail_and_one_summary_follows_at_their_end(
        site_key, service, client, ann, mailoutbox):
    ann.language = "es"
    ann.save(update_fields=["language"])
    browser = subscribed(client, ann, service)
    quiet_now(ann)
    tell(ann, 1)
    tell(ann, 2, kind="invitation")
    tell(ann, 3, kind="invitation")
    read_meanwhile = tell(ann, 4, kind="game_over")
    assert service.received == [] and mailoutbox == []
    held = Notification.objects.filter(user=ann, release_at__isnull=False)
    assert held.count() == 4  # all in the site, unread, none sent
    Notification.objects.filter(pk=read_meanwhile.pk).update(read=True)
    ends = held.first().release_at
    assert timezone.now() < ends <= timezone.now() + timedelta(hours=2, minutes=1)

    assert notices_release(now=ends - timedelta(seconds=1)) == 0  # not yet
    assert service.received == []
    with committed():
        assert notices_release(now=ends) == 1
        assert notices_release(now=ends) == 0  # run twice: one summary
    [push] = service.received
    shown = browser.decrypt(push["body"])
    assert shown["title"] == "Mientras no estabas"
    assert shown["body"] == ("Mientras no estabas: 2 invitaciones, 1 noticia de torneo.")
    assert shown["url"] == "https://blaze.example/notifications/"
    [mail] = mailoutbox
    assert "2 invitaciones" in mail.body
    assert not Notification.objects.filter(release_at__isnull=False).exists()
    assert Notification.objects.filter(user=ann, kind="summary").count() == 1


def test_a_turn_in_quiet_hours_is_held_and_told_in_the_summary(site_key, service, client,
                                                               ann, bob, cat, mailoutbox):
    browsers = {user.pk: subscribed(client, user, service) for user in (ann, bob, cat)}
    for user in (ann, bob, cat):
        quiet_now(user)
    game = started_game([ann, bob, cat])
    player = user_at(game, game.waiting_on[0])
    turn = Notification.objects.get(user=player, game=game, kind="your_turn")
    assert turn.release_at is not None and not turn.read
    assert service.received == [] and mailoutbox == []
    with committed():
        notices_release(now=turn.release_at)
    [push] = service.received
    assert push["path"] == f"/{player.username}"
    assert browsers[player.pk].decrypt(push["body"])["body"] == (
        "While you were away: your turn in 1 game.")


def test_a_turn_played_during_quiet_hours_is_left_out_of_the_summary(ann, bob, cat,
                                                                    mailoutbox):
    for user in (ann, bob, cat):
        quiet_now(user)
    game = started_game([ann, bob, cat])
    first = game.waiting_on[0]
    player = user_at(game, first)
    tell(player, 1, kind="invitation")
    while game.waiting_on and game.waiting_on[0] == first:  # played from another device
        game = move_random(game, first)
    due = Notification.objects.filter(user=player).exclude(release_at=None).first().release_at
    with committed():
        notices_release(now=due)
    [mail] = [m for m in mailoutbox if m.to == [player.email]]
    assert "While you were away: 1 invitation." in mail.body


def test_a_reminder_of_a_deadline_before_the_quiet_hours_end_is_not_held(ann, mailoutbox):
    quiet_now(ann, after=timedelta(hours=3))
    with committed():
        notify(user=ann, kind="almost_out", key="almost_out:soon",
               text="Game %(game)s: you are almost out of time (deadline %(deadline)s).",
               params={"game": 1, "deadline": timezone.now() + timedelta(hours=1)})
        notify(user=ann, kind="almost_out", key="almost_out:later",
               text="Game %(game)s: you are almost out of time (deadline %(deadline)s).",
               params={"game": 2, "deadline": timezone.now() + timedelta(hours=9)})
    assert len(mailoutbox) == 1 and "Game 1:" in mailoutbox[0].body  # game 2 can wait
    assert Notification.objects.get(key="almost_out:later").release_at is not None


def test_outside_quiet_hours_a_notice_goes_out_at_once(site_key, service, client, ann,
                                                      mailoutbox):
    subscribed(client, ann, service)
    now = timezone.now()  # quiet hours that ended an hour ago and begin in two
    notice_settings_set(user=ann, quiet_start=(now + timedelta(hours=2)).strftime("%H:%M"),
                        quiet_end=(now - timedelta(hours=1)).strftime("%H:%M"))
    tell(ann, 1)
    assert len(service.received) == 1 and len(mailoutbox) == 1
    assert not Notification.objects.filter(release_at__isnull=False).exists()


@pytest.mark.parametrize("channel, pushed, mailed", [
    ("none", 0, 0), ("email", 0, 1), ("push", 1, 0), ("both", 1, 1)])
def test_each_kind_goes_the_way_the_player_chose(site_key, service, client, ann, mailoutbox,
                                                 channel, pushed, mailed):
    subscribed(client, ann, service)
    notice_settings_set(user=ann, channels={"tournament": channel})
    note = tell(ann, 1)
    assert len(service.received) == pushed
    assert len(mailoutbox) == mailed
    assert Notification.objects.get(pk=note.pk).read is False  # always kept in the site
    tell(ann, 2, kind="invitation")  # another kind keeps its own choice (both)
    assert len(service.received) == pushed + 1 and len(mailoutbox) == mailed + 1


def _settings(client):
    response = client.get("/api/v1/notices/settings")
    assert response.status_code == 200
    return response.json()


def test_choices_are_read_and_changed_through_the_api(client, ann):
    client.force_login(ann)
    assert _settings(client)["quiet_hours"] is None
    response = client.patch("/api/v1/notices/settings", {
        "channels": {"your_turn": "push", "game_over": "none"},
        "quiet_hours": {"start": "22:30", "end": "07:00"},
        "reminder_hours": [2, 24], "timezone": "Asia/Tokyo"},
        content_type="application/json")
    assert response.status_code == 200, response.content
    shown = response.json()
    assert shown == _settings(client)
    assert shown["channels"]["your_turn"] == "push" and shown["channels"]["game_over"] == "none"
    assert shown["channels"]["invitation"] == "both"
    assert shown["quiet_hours"] == {"start": "22:30", "end": "07:00"}
    assert shown["reminder_hours"] == [24, 2] and shown["timezone"] == "Asia/Tokyo"
    response = client.patch("/api/v1/notices/settings", {"quiet_hours": None},
                            content_type="application/json")
    assert response.json()["quiet_hours"] is None
    assert response.json()["reminder_hours"] == [24, 2]  # left out: kept


@pytest.mark.parametrize("body", [
    {"channels": {"your_turn": "pigeon"}, "reminder_hours": [24]},
    {"channels": {"weather": "push"}},
    {"channels": ["push"]},
    {"reminder_hours": [24, 12, 6, 2, 1]},
    {"reminder_hours": [0]},
    {"reminder_hours": [2.5]},
    {"reminder_hours": [24 * 15]},
    {"reminder_hours": "24"},
    {"reminder_hours": None},
    {"quiet_hours": {"start": "25:00", "end": "07:00"}},
    {"quiet_hours": {"start": "22:00"}},
    {"quiet_hours": {"start": "07:00", "end": "07:00"}},
    {"timezone": "Mars/Olympus_Mons", "reminder_hours": [24]},
    {"unknown": 1},
])
def test_bad_choices_are_refused_with_a_sentence_and_change_nothing(client, ann, body):
    client.force_login(ann)
    client.patch("/api/v1/notices/settings", {"reminder_hours": [6],
                                              "channels": {"your_turn": "email"}},
                 content_type="application/json")
    before = _settings(client)
    response = client.patch("/api/v1/notices/settings", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]
    assert _settings(client) == before
    user = User.objects.get(pk=ann.pk)
    assert user.reminder_hours == [6] and user.notice_channels == {"your_turn": "email"}


def test_the_settings_page_saves_choices_and_refuses_bad_ones_whole(client, ann):
    client.force_login(ann)
    page = client.get("/notifications/settings/")
    assert page.status_code == 200 and 'name="channel_your_turn"' in page.content.decode()
    form = {"quiet_start": "23:00", "quiet_end": "06:30", "timezone": "Europe/Madrid",
            "reminder_hours": "24, 2", "channel_your_turn": "push",
            **{f"channel_{k}": "both" for k in ("almost_out", "timeout", "game_over",
                                                 "invitation", "rematch", "tournament",
                                                 "summary")}}
    assert client.post("/notifications/settings/", form).status_code == 302
    user = User.objects.get(pk=ann.pk)
    assert (user.quiet_start, user.quiet_end) == (time(23, 0), time(6, 30))
    assert user.reminder_hours == [24, 2] and user.timezone == "Europe/Madrid"
    assert user.notice_channels["your_turn"] == "push"
    bad = client.post("/notifications/settings/", {**form, "reminder_hours": "24, soon",
                                                   "channel_your_turn": "none"})
    assert bad.status_code == 400
    assert "whole number of hours" in bad.content.decode()
    again = User.objects.get(pk=ann.pk)
    assert again.reminder_hours == [24, 2] and again.notice_channels["your_turn"] == "push"


def test_the_release_job_reads_as_many_queries_with_many_held_notices_not_yet_due(ann):
    """Only what is due is read: other players' notices held for later, and the history,
    cost nothing."""
    quiet_now(ann)
    tell(ann, 0)

    def others(first, last):
        for n in range(first, last):
            player = make_user(f"night{n}")
            quiet_now(player, after=timedelta(hours=3))
            for k in range(3):
                tell(player, k)

    def queries(due_at) -> int:
        with CaptureQueriesContext(connection) as seen, committed():
            assert notices_release(now=due_at) == 1
        Notification.objects.filter(user=ann).update(release_at=due_at)  # held again
        Notification.objects.filter(kind="summary").delete()
        return len(seen)

    due = Notification.objects.get(user=ann).release_at
    others(0, 2)
    few = queries(due)
    others(2, 12)
    assert Notification.objects.filter(release_at__isnull=False).count() > 30
    assert queries(due) == few


def _user_reads(captured) -> list[str]:
    """Statements reading the user table alone (a game's locked read joins it)."""
    table = User._meta.db_table
    return [q["sql"] for q in captured.captured_queries
            if q["sql"].startswith("SELECT") and f'FROM "{table}"' in q["sql"]]


def _move_captured(game, seat):
    """`seat` plays a legal move; the statements of the move alone."""
    game.refresh_from_db()
    move = dict(random.Random(1).choice(legal_moves(game_state(game), seat)))
    del move["seat"]
    mover = user_at(game, seat)
    with CaptureQueriesContext(connection) as captured, committed():
        services.move_play(game_id=game.pk, user=mover, seq=game.seq, move=move)
    game.refresh_from_db()
    return game, captured


def test_a_move_reads_no_players_password_hash_or_dates(ann, bob, cat):
    game = started_game([ann, bob, cat])
    _, captured = _move_captured(game, game.waiting_on[0])
    locked = [q["sql"] for q in captured.captured_queries if "FOR UPDATE" in q["sql"]]
    assert locked and all(f'"{column}"' not in sql
                          for sql in locked for column in selectors.USER_UNREAD)


def test_a_turn_and_its_notice_in_quiet_hours_read_the_players_settings_with_the_game(
        ann, bob, cat):
    for user in (ann, bob, cat):
        quiet_now(user)
    game = started_game([ann, bob, cat])
    before = Notification.objects.filter(kind="your_turn").count()
    game, captured = _move_captured(game, game.waiting_on[0])
    turn = Notification.objects.filter(game=game, kind="your_turn").latest("pk")
    assert Notification.objects.filter(kind="your_turn").count() > before
    assert turn.release_at is not None  # the quiet hours were read and kept
    assert _user_reads(captured) == []  # none read again, field by field
