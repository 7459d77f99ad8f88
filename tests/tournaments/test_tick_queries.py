"""The tournament tick reads only what is due: running tournaments whose round still
plays cost it nothing per tournament, whatever their number of tables and games."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from tournaments.services import tournament_start, tournaments_tick

from .conftest import make_players, make_tournament, register_all

pytestmark = pytest.mark.django_db


def _running(organiser, count: int, start: int) -> None:
    """count tournaments of 8 people (two tables of four), round 1 being played."""
    for k in range(start, start + count):
        t = make_tournament(organiser, name=f"Cup {k}", table_size=4)
        register_all(t, make_players(f"t{k}p", 8))
        tournament_start(tournament_id=t.pk)


def _tick_queries() -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert tournaments_tick() == {"started": [], "cancelled": [], "advanced": []}
    return len(ctx.captured_queries)


def test_the_tick_costs_the_same_with_three_times_the_running_tournaments(ann, settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    _running(ann, 2, 0)
    small = _tick_queries()
    _running(ann, 4, 2)
    assert _tick_queries() == small
