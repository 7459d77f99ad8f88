"""The notice centre: one live notice per game and kind, none for the table the player is
looking at, an unread count in the navigation, mark read and mark all read."""

import random
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.live.presence import presence_leave, presence_touch
from notifications.models import Notification
from notifications.notifications import notify
from tests.clocks.helpers import committed, move_random, started_game, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


def _play(game, moves: int, rng) -> object:
    for _ in range(moves):
        if not game.waiting_on:
            break
        game = move_random(game, game.waiting_on[0], rng)
    return game


def test_a_long_correspondence_game_leaves_one_turn_notice_per_player(ann, bob, cat):
    game = _play(started_game([ann, bob, cat]), 60, random.Random(4))
    for user in (ann, bob, cat):
        turns = Notification.objects.filter(user=user, game=game, kind="your_turn")
        assert turns.count() <= 1
    assert Notification.objects.filter(game=game, kind="your_turn").count() >= 2


def test_a_new_turn_updates_the_notice_and_makes_it_unread_again(ann, bob, cat):
    game = started_game([ann, bob, cat])
    first = user_at(game, game.waiting_on[0])
    note = Notification.objects.get(user=first, kind="your_turn")
    Notification.objects.filter(pk=note.pk).update(read=True)
    rng = random.Random(9)
    while True:  # until first's turn comes round again
        game = move_random(game, game.waiting_on[0], rng)
        again = Notification.objects.get(user=first, kind="your_turn")
        if again.key != note.key:
            break
    assert again.pk == note.pk and not again.read
    assert again.created > note.created and again.text == note.text


def test_no_notice_for_the_table_the_player_has_open(ann, bob, cat):
    game = started_game([ann, bob, cat])
    Notification.objects.all().delete()
    for user in (ann, bob, cat):
        presence_touch(user.pk, game.pk)
    try:
        game = _play(game, 12, random.Random(2))
        assert not Notification.objects.filter(game=game).exists()
    finally:
        for user in (ann, bob, cat):
            presence_leave(user.pk, game.pk)
    with committed():  # news about another game, or none, still comes
        notify(user=ann, kind="tournament", key="news:1", text="Round 2 has started.")
    assert Notification.objects.filter(user=ann).count() == 1


def _unread_badge(client) -> str | None:
    page = client.get("/notifications/").content.decode()
    found = re.search(r'id="nav-unread">(\d+)<', page)
    return found.group(1) if found else None


def test_the_navigation_counts_unread_notices_and_marking_read_clears_them(client, ann, bob):
    with committed():
        for n in range(3):
            notify(user=ann, kind="tournament", key=f"news:{n}", text=f"News {n}.")
        notify(user=bob, kind="tournament", key="news:bob", text="Bob's news.")
    client.force_login(ann)
    assert _unread_badge(client) == "3"
    first = Notification.objects.filter(user=ann).first()
    assert client.post(f"/notifications/{first.pk}/read/").status_code == 302
    assert _unread_badge(client) == "2"
    bobs = Notification.objects.get(user=bob)  # not ann's to mark
    client.post(f"/notifications/{bobs.pk}/read/")
    assert not Notification.objects.get(pk=bobs.pk).read
    client.post("/notifications/")  # mark all read
    assert _unread_badge(client) is None
    assert Notification.objects.filter(user=bob, read=False).count() == 1


def test_the_notice_list_reads_as_many_queries_for_sixty_notices_as_for_three(
        client, ann, bob, cat):
    started_game([ann, bob, cat])  # a "your turn" notice links its game

    def add(first, last):
        with committed():
            for n in range(first, last):
                notify(user=ann, kind="tournament", key=f"news:{n}", text=f"News {n}.")

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get("/notifications/").status_code == 200
        return len(seen)

    client.force_login(ann)
    add(0, 2)
    client.get("/notifications/")  # the session and language, read once
    few = queries()
    add(2, 60)
    assert Notification.objects.filter(user=ann).count() >= 60
    assert queries() == few


def test_the_app_manifest_service_worker_and_offline_page(client, ann):
    manifest = client.get("/manifest.webmanifest")
    assert manifest["Content-Type"] == "application/manifest+json"
    data = manifest.json()
    assert data["start_url"] == "/" and data["display"] == "standalone"
    assert {icon["sizes"] for icon in data["icons"]} == {"192x192", "512x512"}
    worker = client.get("/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    body = worker.content.decode()
    assert 'addEventListener("push"' in body and 'addEventListener("notificationclick"' in body
    client.force_login(ann)
    offline = client.get("/offline/").content.decode()
    assert "You are offline" in offline and ">ann<" not in offline  # kept for anyone
    home = client.get("/").content.decode()
    assert 'rel="manifest"' in home
