"""My games by deadline: the games waiting on me come first, soonest deadline first, in
the page, in the API's `mine`, and behind the "next game" button."""

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from clocks.models import SeatClock
from tests.clocks.helpers import started_game, user_at

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


def _waiting_on_ann(ann, bob, cat, count: int) -> list:
    games = []
    while len(games) < count:
        game = started_game([ann, bob, cat])
        if user_at(game, game.waiting_on[0]) == ann:
            games.append(game)
    return games


def _due_in(game, user, hours: float) -> None:
    seat = game.seats.get(user=user).index
    SeatClock.objects.filter(game=game, seat=seat).update(
        deadline=timezone.now() + timedelta(hours=hours))


def test_the_next_game_button_opens_the_game_with_the_least_time_left(client, ann, bob,
                                                                        cat):
    games = _waiting_on_ann(ann, bob, cat, 3)
    for game, hours in zip(games, (30, 2, 50), strict=True):
        _due_in(game, ann, hours)
    client.force_login(ann)
    response = client.get("/games/next/")
    assert response.status_code == 302 and response["Location"] == f"/games/{games[1].pk}/"
    mine = [g["id"] for g in client.get("/api/v1/games").json()["mine"]]
    assert mine[:3] == [games[1].pk, games[0].pk, games[2].pk]
    page = client.get("/games/").content.decode()
    assert page.index(f"/games/{games[1].pk}/") < page.index(f"/games/{games[0].pk}/") \
        < page.index(f"/games/{games[2].pk}/")


def test_with_no_game_waiting_the_button_says_so(client, ann):
    client.force_login(ann)
    response = client.get("/games/next/", follow=True)
    assert response.redirect_chain[-1][0] == "/games/"
    assert "No game is waiting on you." in response.content.decode()


def test_the_next_game_reads_as_many_queries_for_six_games_as_for_two(client, ann, bob, cat,
                                                                       settings):
    # the tables are set-up, not what is measured: counters other tests left in the shared
    # cache for these user ids must not refuse them
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "game_create": "1000/h"}
    client.force_login(ann)
    games = _waiting_on_ann(ann, bob, cat, 2)

    def queries() -> int:
        with CaptureQueriesContext(connection) as seen:
            assert client.get("/games/next/").status_code == 302
        return len(seen)

    client.get("/games/next/")  # the session, read once
    few = queries()
    games += _waiting_on_ann(ann, bob, cat, 4)
    assert queries() == few
