"""Emails: contents, headers, preferences, presence, the digest, one-click unsubscribe."""

import random
import re
from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.core import signing
from django.test import Client

from clocks.tasks import clocks_sweep
from games.live.presence import presence_here, presence_leave, presence_touch
from games.models import Game
from notifications import notifications
from notifications.emails import unsubscribe_token
from notifications.models import EmailOptOut, Notification
from notifications.tasks import notification_send, send_digests
from tests.clocks.helpers import committed, move_random, started_game, user_at

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def mails_to(outbox, user):
    return [m for m in outbox if m.to == [user.email]]


def test_your_turn_email_links_the_game_and_unsubscribes_in_one_click(
        clock, ann, bob, cat, mailoutbox):
    game = started_game([ann, bob, cat])
    player = user_at(game, game.waiting_on[0])
    [mail] = mails_to(mailoutbox, player)
    assert mail.subject == f"[Blaze] Your turn in game {game.pk}"
    assert f"https://blaze.example/games/{game.pk}/" in mail.body
    token = unsubscribe_token(player)
    link = f"https://blaze.example/notifications/unsubscribe/{token}/"
    assert mail.extra_headers["List-Unsubscribe"] == f"<{link}>"
    assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert link in mail.body
    note = Notification.objects.get(user=player, kind="your_turn", game=game)
    assert note.emailed
    # The task run again (a retried delivery) sends nothing more.
    assert notification_send(note.pk) is False
    assert len(mails_to(mailoutbox, player)) == 1


def test_preferences_digest_and_never_get_no_immediate_email(clock, ann, bob, cat, mailoutbox):
    for user in (ann, bob, cat):
        user.email_on_turn = "digest" if user is ann else "never"
        user.save()
    game = started_game([ann, bob, cat])
    assert mailoutbox == []
    # ...but the site lists the turn for whoever it is.
    player = user_at(game, game.waiting_on[0])
    assert Notification.objects.filter(user=player, kind="your_turn").exists()


def test_no_email_while_the_player_has_the_game_open(clock, ann, bob, cat, mailoutbox):
    game = started_game([ann, bob, cat])
    mailoutbox.clear()
    seat = game.waiting_on[0]
    nxt = None
    rng = random.Random(2)
    for _ in range(30):  # play until a different player's turn begins
        game = move_random(game, game.waiting_on[0], rng)
        if game.waiting_on and game.waiting_on[0] != seat:
            nxt = user_at(game, game.waiting_on[0])
            break
    assert nxt is not None
    before = len(mails_to(mailoutbox, nxt))
    presence_touch(nxt.pk, game.pk)
    assert presence_here(nxt.pk, game.pk)
    note = Notification.objects.filter(user=nxt, kind="your_turn").order_by("-pk").first()
    Notification.objects.filter(pk=note.pk).update(emailed=False)
    assert notification_send(note.pk) is False
    presence_leave(nxt.pk, game.pk)
    assert notification_send(note.pk) is True
    assert len(mails_to(mailoutbox, nxt)) == before + 1


def test_almost_out_of_time_is_sent_once_at_a_fifth_left(clock, ann, bob, cat, mailoutbox):
    game = started_game([ann, bob, cat])
    seat = game.waiting_on[0]
    player = user_at(game, seat)
    clock.shift(timedelta(days=2.4) - timedelta(seconds=1))
    with committed():
        clocks_sweep()
    assert not Notification.objects.filter(kind="almost_out").exists()
    clock.shift(timedelta(seconds=1))
    with committed():
        clocks_sweep()
        clocks_sweep()
    notes = Notification.objects.filter(kind="almost_out", user=player)
    assert notes.count() == 1
    [mail] = [m for m in mails_to(mailoutbox, player) if "Almost out" in m.subject]
    assert f"/games/{game.pk}/" in mail.body and "2026-03-05 12:00" in mail.body


def test_game_over_email_with_the_result(clock, ann, bob, cat, mailoutbox):
    for user in (ann, bob, cat):
        user.email_on_turn = "never"
        user.save()
    game = started_game([ann, bob, cat])
    rng = random.Random(11)
    for _ in range(3000):
        if game.status != Game.PLAYING:
            break
        game = move_random(game, game.waiting_on[0], rng)
    assert game.status == Game.FINISHED
    for user in (ann, bob, cat):
        [mail] = mails_to(mailoutbox, user)
        assert mail.subject == f"[Blaze] Game {game.pk} is over"
        scores, ranking = game.result["scores"], game.result["ranking"]
        # One notice, in words: every place, name and score, best first.
        places = ", ".join(
            f"{place}. {game.seats.get(index=s).user.username} {scores[s]} "
            f"point{'' if scores[s] == 1 else 's'}" for place, s in enumerate(ranking, start=1))
        assert f"Game over: {places}." in mail.body and "[" not in mail.body.split("--")[0]
        assert "List-Unsubscribe" in mail.extra_headers
        assert Notification.objects.filter(user=user, kind="game_over").count() == 1


def test_daily_digest_lists_every_game_waiting_once_a_day(clock, ann, bob, cat, dan,
                                                           mailoutbox):
    for user in (ann, bob, cat, dan):
        user.email_on_turn = "digest"
        user.timezone = "America/New_York"
        user.save()
    games = [started_game([ann, bob, cat]), started_game([ann, bob, dan]),
             started_game([ann, cat, dan])]
    assert mailoutbox == []
    clock.move_to(datetime(2026, 3, 3, 12, 59, tzinfo=UTC))  # 07:59 in New York
    assert send_digests() == 0
    clock.move_to(datetime(2026, 3, 3, 13, 0, tzinfo=UTC))
    sent = send_digests()
    waiting = {}
    for game in games:
        for seat in game.waiting_on:
            waiting.setdefault(user_at(game, seat), []).append(game.pk)
    assert sent == len(waiting)
    for user, ids in waiting.items():
        [mail] = mails_to(mailoutbox, user)
        n = len(ids)
        assert mail.subject == f"[Blaze] {n} game{'s' if n > 1 else ''} waiting on you"
        assert sorted(map(int, re.findall(r"- Game (\d+)", mail.body))) == sorted(ids)
        assert mail.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert send_digests() == 0  # the same day: nothing more
    clock.move_to(datetime(2026, 3, 4, 13, 0, tzinfo=UTC))
    assert send_digests() == len(waiting)  # the next day: a new digest


def test_unsubscribe_page_and_one_click_post_without_login(ann):
    client = Client(enforce_csrf_checks=True)
    url = f"/notifications/unsubscribe/{unsubscribe_token(ann)}/"
    page = client.get(url)
    assert page.status_code == 200 and b"Stop all game emails to ann" in page.content
    assert b'<form method="post">' in page.content
    assert not EmailOptOut.objects.exists()
    one_click = client.post(url, data="List-Unsubscribe=One-Click",
                            content_type="application/x-www-form-urlencoded")
    assert one_click.status_code == 200 and b"will get no more game emails" in one_click.content
    ann.refresh_from_db()
    assert ann.email_on_turn == "never"
    opt_out = EmailOptOut.objects.get(user=ann)
    again = client.post(url)
    assert again.status_code == 200 and b"already unsubscribed" in again.content
    assert EmailOptOut.objects.get(user=ann).created == opt_out.created


def test_a_bad_unsubscribe_token_is_refused(ann):
    client = Client(enforce_csrf_checks=True)
    token = unsubscribe_token(ann)
    for bad in (token[:-2] + "xx", signing.dumps({"u": ann.pk}), "nonsense"):
        for method in (client.get, client.post):
            resp = method(f"/notifications/unsubscribe/{bad}/")
            assert resp.status_code == 400 and b"not valid" in resp.content
    assert not EmailOptOut.objects.exists()


def test_unsubscribed_players_get_no_email_but_keep_site_notifications(
        clock, ann, bob, cat, mailoutbox):
    for user in (ann, bob, cat):
        notifications.email_unsubscribe(user=user)
        user.refresh_from_db()
        user.email_on_turn = "immediate"  # even if they turn turn emails back on
        user.save()
    game = started_game([ann, bob, cat])
    assert mailoutbox == []
    assert Notification.objects.filter(game=game, kind="your_turn").count() >= 1


def test_notification_list_mirrors_the_emails(clock, ann, bob, cat, client):
    game = started_game([ann, bob, cat])
    player = user_at(game, game.waiting_on[0])
    client.force_login(player)
    page = client.get("/notifications/")
    assert page.status_code == 200
    assert f"Game {game.pk}: it is your turn.".encode() in page.content
    assert f'href="/games/{game.pk}/"'.encode() in page.content
    client.post("/notifications/")
    assert not Notification.objects.filter(user=player, read=False).exists()
    assert client.get("/notifications/").status_code == 200
    client.logout()
    assert client.get("/notifications/").status_code == 302


def test_a_notice_is_written_in_the_recipients_language_and_time_zone(clock, ann, bob, cat,
                                                                       mailoutbox):
    for user in (ann, bob, cat):
        user.timezone, user.language = "Asia/Tokyo", "ja"
        user.save()
    game = started_game([ann, bob, cat])
    player = user_at(game, game.waiting_on[0])
    clock.shift(timedelta(days=2.4))
    with committed():
        clocks_sweep()
    [note] = Notification.objects.filter(kind="almost_out", user=player)
    # Due at 2026-03-05 12:00 UTC: 21:00 in Tokyo, said in Japanese.
    assert "2026-03-05 21:00 (JST)" in note.text and "持ち時間" in note.text
    [mail] = [m for m in mails_to(mailoutbox, player) if note.text in m.body]
    assert "UTC" not in mail.body.split("--")[0]
