"""The private calendar feed: an event per game waiting on the player, at its deadline,
that moves follow; a new address revokes the old one."""

import random

import icalendar
import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clocks.models import SeatClock
from tests.clocks.helpers import move_random, started_game, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


def _feed(client, url):
    response = client.get(url.removeprefix("https://blaze.example"))
    assert response.status_code == 200, response.content
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    return icalendar.Calendar.from_ical(response.content)


def _events(calendar) -> dict[str, object]:
    return {str(event["UID"]): event for event in calendar.walk("VEVENT")}


def _waiting_on(user, games):
    return [g for g in games if user_at(g, g.waiting_on[0]) == user]


def test_each_game_waiting_on_the_player_is_an_event_at_its_deadline(client, ann, bob, cat):
    ann.language = "es"
    ann.save(update_fields=["language"])
    games = [started_game([ann, bob, cat]) for _ in range(4)]
    client.force_login(ann)
    url = client.get("/api/v1/me").json()["calendar_url"]
    assert url.startswith("https://blaze.example/calendar/")
    events = _events(_feed(client, url))
    mine = [g for g in games if ann in {user_at(g, s) for s in g.waiting_on}]
    assert len(events) == len(mine)
    for game in mine:
        seat = game.seats.get(user=ann).index
        [event] = [e for uid, e in events.items() if uid.startswith(f"game-{game.pk}-")]
        clock = SeatClock.objects.get(game=game, seat=seat)
        assert event.decoded("DTSTART") == clock.deadline.replace(microsecond=0)
        assert str(event["SUMMARY"]) == f"Blaze: te toca mover en la partida {game.pk}"
        assert str(event["URL"]) == f"https://blaze.example/games/{game.pk}/"


def test_a_move_takes_the_game_out_of_the_movers_feed(client, ann, bob, cat):
    game = started_game([ann, bob, cat])
    mover = user_at(game, game.waiting_on[0])
    client.force_login(mover)
    url = client.get("/api/v1/me").json()["calendar_url"]
    client.logout()
    assert len(_events(_feed(client, url))) == 1
    rng = random.Random(3)
    while mover in {user_at(game, s) for s in game.waiting_on}:
        game = move_random(game, game.waiting_on[0], rng)
    assert _events(_feed(client, url)) == {}


def test_a_new_address_revokes_the_old_one(client, ann):
    client.force_login(ann)
    old = client.get("/api/v1/me").json()["calendar_url"]
    assert client.post("/account/calendar/").status_code == 302
    new = client.get("/api/v1/me").json()["calendar_url"]
    assert new != old
    client.logout()
    assert client.get(old.removeprefix("https://blaze.example")).status_code == 404
    _feed(client, new)
    assert client.get("/calendar/not-a-secret.ics").status_code == 404


def test_the_feed_reads_as_many_queries_for_six_games_as_for_two(client, ann, bob, cat):
    client.force_login(ann)
    url = client.get("/api/v1/me").json()["calendar_url"].removeprefix("https://blaze.example")

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get(url).status_code == 200
        return len(seen)

    games = []
    while len(_waiting_on(ann, games)) < 2:
        games.append(started_game([ann, bob, cat]))
    few = queries()
    while len(_waiting_on(ann, games)) < 6:
        games.append(started_game([ann, bob, cat]))
    assert queries() == few
