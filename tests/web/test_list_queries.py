"""Every list page costs the same number of queries at N and at 3N games: a list reads
its games, their seats and players in a fixed number of statements (no query per line)."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.services import api_token_create
from games.models import Game, Seat
from ops.seed import games_create
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
N = 12
PAGES = ["/", "/play/", "/games/"]


def _grow(users: list, count: int, rng) -> None:
    """count finished games, count in play (waiting on a person) and count open tables,
    all with the viewer among the people at most of them."""
    ids = [u.pk for u in users]
    games_create(count, ids, rng)
    games_create(count, ids, rng, finished=False)
    tables = Game.objects.bulk_create(Game(players=4, created_by=users[i % len(users)])
                                      for i in range(count))
    Seat.objects.bulk_create(
        seat for i, t in enumerate(tables)
        for seat in (Seat(game=t, index=0, user=users[i % len(users)]),
                     Seat(game=t, index=1, bot_level="basic")))
    # The viewer's turn at their newest game in play, at both sizes: a list reads the
    # clocks of the games waiting on its viewer, and random play need not leave one.
    seat = (Seat.objects.filter(user=users[0], game__status=Game.PLAYING)
            .order_by("-game__created").first())
    Game.objects.filter(pk=seat.game_id).update(waiting_on=[seat.index])


def _queries(client, url: str, **headers) -> int:
    client.get(url, **headers)  # once first: writes done once a while (a token's last use)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, **headers)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.fixture
def people(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    return [make_user(name) for name in ("ann", "bob", "cat", "dan")]


@pytest.mark.parametrize("url", PAGES)
def test_a_list_page_costs_the_same_queries_with_three_times_the_games(client, people, url):
    client.force_login(people[0])
    rng = random.Random(1)
    _grow(people, N, rng)
    small = _queries(client, url)
    _grow(people, 2 * N, rng)
    assert _queries(client, url) == small


def test_the_api_game_list_costs_the_same_queries_with_three_times_the_games(client, people):
    auth = {"HTTP_AUTHORIZATION": f"Bearer {api_token_create(user=people[0], name='t')[1]}"}
    rng = random.Random(2)
    _grow(people, N, rng)
    small = _queries(client, "/api/v1/games", **auth)
    _grow(people, 2 * N, rng)
    assert _queries(client, "/api/v1/games", **auth) == small
