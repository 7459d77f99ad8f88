"""Old notices and expired sessions are deleted by periodic jobs, oldest first, in bounded
batches, touching only what is due: the same queries however large the tables are."""

from datetime import timedelta

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.contrib.sessions.models import Session
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from accounts.services import sessions_clear_expired
from blaze_site.celery import app as celery_app
from notifications.models import Notification
from notifications.notifications import notifications_prune

pytestmark = pytest.mark.django_db
N = 10


@pytest.fixture(autouse=True)
def _ages(settings):
    settings.NOTIFICATIONS_KEEP_READ_DAYS = 30
    settings.NOTIFICATIONS_KEEP_UNREAD_DAYS = 180
    settings.PRUNE_BATCH = 5000
    settings.PRUNE_MAX_BATCHES = 20


_made = iter(range(10**9))


def _notices(user, count: int, *, days: float, read: bool) -> list[int]:
    rows = Notification.objects.bulk_create(
        Notification(user=user, kind=Notification.DIGEST, key=f"n{next(_made)}", text="x",
                     read=read) for _ in range(count))
    ids = [n.pk for n in rows]
    Notification.objects.filter(pk__in=ids).update(created=timezone.now() - timedelta(days=days))
    return ids


def _sessions(count: int, *, days: float) -> None:
    for _ in range(count):
        store = SessionStore()
        store["k"] = 1
        store.create()
        Session.objects.filter(pk=store.session_key).update(
            expire_date=timezone.now() + timedelta(days=days))


def test_read_notices_go_after_a_month_and_unread_ones_after_half_a_year(ann, bob):
    read_old = _notices(ann, 2, days=31, read=True)
    read_recent = _notices(ann, 2, days=29, read=True)
    unread_month = _notices(bob, 2, days=31, read=False)
    unread_old = _notices(bob, 2, days=181, read=False)
    assert notifications_prune() == 4
    kept = set(Notification.objects.values_list("pk", flat=True))
    assert kept == set(read_recent + unread_month)
    assert not kept & set(read_old + unread_old)


def test_the_ages_are_settings(ann, settings):
    settings.NOTIFICATIONS_KEEP_READ_DAYS = 2
    settings.NOTIFICATIONS_KEEP_UNREAD_DAYS = 5
    _notices(ann, 1, days=3, read=True)
    unread = _notices(ann, 1, days=3, read=False)
    _notices(ann, 1, days=6, read=False)
    assert notifications_prune() == 2
    assert list(Notification.objects.values_list("pk", flat=True)) == unread


def test_a_backlog_is_deleted_oldest_first_a_bounded_batch_at_a_time(ann, settings):
    settings.PRUNE_BATCH, settings.PRUNE_MAX_BATCHES = 3, 2
    oldest = _notices(ann, 4, days=300, read=True)
    newer = _notices(ann, 4, days=100, read=True)
    assert notifications_prune() == 6  # two batches of three, then the run stops
    assert set(Notification.objects.values_list("pk", flat=True)) <= set(newer)
    assert not set(Notification.objects.values_list("pk", flat=True)) & set(oldest)
    assert notifications_prune() == 2  # the next run takes the rest
    assert not Notification.objects.exists()


def test_expired_sessions_are_deleted_and_live_ones_kept(settings):
    _sessions(3, days=-1)
    _sessions(2, days=1)
    settings.PRUNE_BATCH = 2
    assert sessions_clear_expired() == 3
    assert Session.objects.count() == 2
    assert all(s.expire_date > timezone.now() for s in Session.objects.all())


def test_another_session_engine_clears_its_own(settings):
    settings.SESSION_ENGINE = "django.contrib.sessions.backends.cache"
    assert sessions_clear_expired() == 0


def _queries(job: str) -> int:
    with CaptureQueriesContext(connection) as ctx:
        celery_app.tasks[job].apply().get()
    return len(ctx.captured_queries)


def _grow(users, count: int) -> None:
    """count notices and sessions not yet due, and the same few due every time."""
    for user in users:
        _notices(user, count, days=1, read=True)
        _notices(user, count, days=60, read=False)
        _notices(user, 2, days=40, read=True)
        _notices(user, 1, days=200, read=False)
    _sessions(count, days=1)
    _sessions(5, days=-2)


@pytest.mark.parametrize("job", ["notifications.tasks.notifications_prune",
                                 "accounts.tasks.sessions_clear"])
def test_a_pruning_job_costs_the_same_queries_with_three_times_the_rows(job, ann, bob, settings):
    settings.CELERY_TASK_ALWAYS_EAGER = True
    settings.PRUNE_BATCH = 4  # the due rows take two batches each time
    celery_app.loader.import_default_modules()
    celery_app.tasks[job].apply().get()  # warm-up: the first run of a task looks up more
    _grow([ann, bob], N)
    small = _queries(job)
    _grow([ann, bob], 3 * N)
    assert _queries(job) == small
    assert _queries(job) < small  # nothing due left: one query per kind of row
