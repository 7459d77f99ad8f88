"""Profiles (a bot's: it plays every game), head-to-head and the leaderboard cost the same
number of queries at N and 3N games, and what they read of a bot's history is bounded."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from accounts.models import User
from accounts.services import bots_create
from ops.seed import games_create
from ratings.services import ratings_recompute
from ratings.stats import head_to_head, rating_history
from tests.conftest import make_user

pytestmark = pytest.mark.django_db
N = 10
PAGES = ["/u/bot-basic/", "/u/ann/", "/u/ann/?vs=bot-basic", "/u/bot-basic/?vs=ann",
         "/leaderboard/?min=1", "/leaderboard/?players=4&min=1"]


@pytest.fixture
def people(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    bots_create()
    return [make_user(name) for name in ("ann", "bob", "cat", "dan")]


def _grow(people, count: int, rng) -> None:
    games_create(count, [u.pk for u in people], rng)
    ratings_recompute()


def _queries(client, url: str) -> int:
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries)


@pytest.mark.parametrize("url", PAGES)
def test_a_rating_page_costs_the_same_queries_with_three_times_the_games(client, people, url):
    rng = random.Random(4)
    _grow(people, N, rng)
    small = _queries(client, url)
    _grow(people, 2 * N, rng)
    assert _queries(client, url) == small


def test_head_to_head_counts_in_sql_what_the_rows_say(people):
    _grow(people, N, random.Random(5))
    ann, bot = people[0], User.objects.get(username="bot-basic")
    h2h = head_to_head(ann, bot)
    from ratings.models import GameStat

    mine = {s.game_id: s.rank for s in GameStat.objects.filter(user=ann)}
    theirs: dict = {}
    for s in GameStat.objects.filter(user=bot):  # its best place where it held several seats
        theirs[s.game_id] = min(s.rank, theirs.get(s.game_id, s.rank))
    both = set(mine) & set(theirs)
    assert h2h["games"] == len(both)
    assert h2h["ahead"] == sum(1 for g in both if mine[g] < theirs[g])
    assert [r["other_rank"] for r in h2h["recent"]] == [
        theirs[r["game_id"]] for r in h2h["recent"]]


def test_the_rating_chart_shows_the_last_games_only(people):
    _grow(people, 3 * N, random.Random(6))
    most = max(people, key=lambda u: u.rating_changes.count())
    everything = rating_history(most, last=10_000)
    assert len(everything) > 3  # 30 games, 60% rated, 4 people: a handful each at least
    short = rating_history(most, last=2)
    assert short[1:] == everything[-2:] and short[0][1] == everything[-3][1]
