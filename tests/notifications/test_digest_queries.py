"""The daily digest job reads its readers, today's sent digests and the seats waiting in a
fixed number of queries: a run with nothing due costs the same with three times the
readers, and each digest sent costs the same few queries."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from notifications.models import Notification
from notifications.tasks import send_digests
from ops.seed import games_create, users_create

pytestmark = pytest.mark.django_db
N = 10


def _grow(count: int, rng) -> None:
    before = set(get_user_model().objects.values_list("pk", flat=True))
    ids = [pk for pk in users_create(count, rng) if pk not in before]
    get_user_model().objects.filter(pk__in=ids).update(email_on_turn="digest")
    games_create(count, ids, rng, finished=False)  # each waits on a person


def _run() -> tuple[int, int]:
    with CaptureQueriesContext(connection) as ctx:
        sent = send_digests()
    return len(ctx.captured_queries), sent


def test_the_digest_costs_the_same_queries_with_three_times_the_readers(settings, mailoutbox):
    settings.DIGEST_HOUR = 0  # due for everyone, whatever the time of day
    rng = random.Random(9)
    _grow(N, rng)
    sending_small, sent_small = _run()
    idle_small, nothing = _run()
    assert sent_small > 0 and nothing == 0
    _grow(3 * N, rng)
    sending_large, sent_large = _run()
    idle_large, nothing = _run()
    assert nothing == 0 and sent_large > sent_small
    assert idle_large == idle_small
    per_digest = (sending_small - idle_small) / sent_small
    assert (sending_large - idle_large) == per_digest * sent_large
    assert len(mailoutbox) == sent_small + sent_large
    assert Notification.objects.filter(kind=Notification.DIGEST).count() == len(mailoutbox)
