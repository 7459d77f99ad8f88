"""Periodic jobs touch what is due, not the history: the same number of queries with
three times the finished games, games waiting on people and users."""

import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from blaze_site.celery import app as celery_app
from ops.seed import games_create, users_create

pytestmark = pytest.mark.django_db
N = 10
JOBS = ["games.tasks.bots_watchdog", "correspondence.tasks.clocks_sweep",
        "tournaments.tasks.tournaments_tick", "accounts.tasks.guests_remove",
        "ops.tasks.heartbeat", "accounts.tasks.sessions_clear",
        "notifications.tasks.notifications_prune", "notifications.tasks.notices_release",
        "games.tasks.review_work"]


def _grow(count: int, rng) -> None:
    ids = users_create(count, rng)
    games_create(count, ids, rng)
    games_create(count, ids, rng, finished=False)


def _queries(job: str) -> int:
    task = celery_app.tasks[job]
    task.apply().get()
    with CaptureQueriesContext(connection) as ctx:
        task.apply().get()
    return len(ctx.captured_queries)


@pytest.mark.parametrize("job", JOBS)
def test_a_periodic_job_costs_the_same_queries_with_three_times_the_data(job, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    celery_app.loader.import_default_modules()
    rng = random.Random(7)
    _grow(N, rng)
    small = _queries(job)
    _grow(2 * N, rng)
    assert _queries(job) == small
