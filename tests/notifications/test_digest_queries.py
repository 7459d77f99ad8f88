"""The daily digest job reads its readers, today's sent digests and the seats waiting in a
fixed number of queries: a run with nothing due costs the same with three times the
readers, and each digest sent costs the same few queries. A run looks at a bounded batch
of readers in due order and queues the next: each digest goes out once, and a run costs
the same however many are due."""

import random
from datetime import UTC, datetime, time, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games.models import Game, Seat
from notifications.digests import digests_send, readers_due
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
    # each digest sent: its claim (a savepoint, the insert, its release); the rest fixed
    assert sending_large - sending_small == 3 * (sent_large - sent_small)
    assert len(mailoutbox) == sent_small + sent_large
    assert Notification.objects.filter(kind=Notification.DIGEST).count() == len(mailoutbox)


def _readers_waited_on(count: int, rng) -> list[int]:
    """`count` new digest readers, each with a game in play waiting on them."""
    User = get_user_model()
    before = set(User.objects.values_list("pk", flat=True))
    ids = [pk for pk in users_create(2 * count, rng) if pk not in before]
    waited: list[int] = []
    while len(waited) < count:
        games_create(count, ids, rng, finished=False)
        waited = sorted({s.user_id for s in Seat.objects.filter(
            user_id__in=ids, game__status=Game.PLAYING).select_related("game")
            if s.index in s.game.waiting_on})
    User.objects.filter(pk__in=waited[:count]).update(email_on_turn="digest")
    return waited[:count]


def _chain(now, batch: int) -> list[tuple[int, int]]:
    """Runs as the task chains them (each full batch queues the next), from a beat tick
    until a batch is not full: (queries, digests sent) of each."""
    runs = []
    while True:
        with CaptureQueriesContext(connection) as ctx:
            run = digests_send(now, batch=batch)
        runs.append((len(ctx.captured_queries), run.sent))
        if not run.more:
            return runs


NOW = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


def test_digests_go_out_in_batches_each_once_and_a_run_costs_the_same_at_three_times(
        settings, mailoutbox):
    settings.DIGEST_HOUR = 0
    batch = 4
    rng = random.Random(28)
    small = _readers_waited_on(3 * batch, rng)
    runs = _chain(NOW, batch)
    assert [sent for _, sent in runs] == [batch, batch, batch, 0]
    assert _chain(NOW, batch) == [runs[-1]]  # the next tick: nothing due, the same cost
    large = _readers_waited_on(9 * batch, rng)
    runs_large = _chain(NOW, batch)
    assert [sent for _, sent in runs_large] == [batch] * 9 + [0]
    assert {queries for queries, _ in runs_large[:-1]} == {runs[0][0]}
    assert runs_large[-1] == runs[-1]
    keys = list(Notification.objects.filter(kind=Notification.DIGEST)
                .values_list("key", flat=True))
    assert sorted(keys) == sorted(f"digest:{pk}:2026-03-02" for pk in small + large)
    assert sorted(m.to[0] for m in mailoutbox) == sorted(
        get_user_model().objects.filter(pk__in=small + large).values_list("email", flat=True))


def test_the_next_look_is_tomorrows_hour_in_the_readers_zone(settings, mailoutbox):
    settings.DIGEST_HOUR = 8
    (reader,) = _readers_waited_on(1, random.Random(4))
    get_user_model().objects.filter(pk=reader).update(timezone="America/New_York")
    assert digests_send(datetime(2026, 3, 2, 12, 59, tzinfo=UTC), batch=5).sent == 0
    user = get_user_model().objects.get(pk=reader)
    assert user.digest_next == datetime(2026, 3, 2, 13, 0, tzinfo=UTC)  # 08:00 there
    assert digests_send(datetime(2026, 3, 2, 13, 0, tzinfo=UTC), batch=5).sent == 1
    user.refresh_from_db()
    assert user.digest_next == datetime(2026, 3, 3, 13, 0, tzinfo=UTC)


def test_the_longest_due_reader_goes_first(settings, mailoutbox):
    settings.DIGEST_HOUR = 0
    first, second = _readers_waited_on(2, random.Random(3))
    User = get_user_model()
    User.objects.filter(pk=first).update(digest_next=datetime(2026, 3, 2, 11, tzinfo=UTC))
    User.objects.filter(pk=second).update(digest_next=datetime(2026, 3, 2, 10, tzinfo=UTC))
    assert [u.pk for u in readers_due(NOW, batch=5)] == [second, first]
    User.objects.filter(pk=first).update(digest_next=None)  # a new reader: due since ever
    assert [u.pk for u in readers_due(NOW, batch=5)] == [first, second]
    run = digests_send(NOW, batch=1)
    assert run.sent == 1 and run.more
    assert Notification.objects.get(kind=Notification.DIGEST).user_id == first


def test_the_task_queues_the_next_batch_until_every_digest_is_sent(settings, monkeypatch,
                                                                     mailoutbox):
    settings.DIGEST_HOUR = 0
    settings.BLAZE_DIGEST_BATCH = 2
    readers = _readers_waited_on(5, random.Random(5))
    queued = []
    monkeypatch.setattr(send_digests, "apply_async", lambda: queued.append(1))
    sent = [send_digests()]
    while len(queued) == len(sent):
        sent.append(send_digests())
    assert sent == [2, 2, 1]
    assert len(mailoutbox) == len(readers) == 5
    assert send_digests() == 0 and len(queued) == 2


def test_a_reader_in_quiet_hours_does_not_hold_up_the_batches_after_them(settings,
                                                                          mailoutbox):
    settings.DIGEST_HOUR = 0
    sleeper, awake = _readers_waited_on(2, random.Random(7))
    get_user_model().objects.filter(pk=sleeper).update(quiet_start=time(11), quiet_end=time(13))
    assert [sent for _, sent in _chain(NOW, 1)] == [0, 1, 0]
    assert [m.to for m in mailoutbox] == [[get_user_model().objects.get(pk=awake).email]]
    later = datetime(2026, 3, 2, 13, 0, tzinfo=UTC)  # the quiet hours' end: the sleeper's
    assert [sent for _, sent in _chain(later, 1)] == [1, 0]


def test_a_time_zone_name_that_is_no_zone_is_read_as_utc(settings, mailoutbox):
    settings.DIGEST_HOUR = 8
    (reader,) = _readers_waited_on(1, random.Random(8))
    get_user_model().objects.filter(pk=reader).update(timezone="Nowhere/Else")
    assert digests_send(datetime(2026, 3, 2, 7, 59, tzinfo=UTC), batch=5).sent == 0
    assert digests_send(datetime(2026, 3, 2, 8, 0, tzinfo=UTC), batch=5).sent == 1


def test_a_reader_no_game_waits_on_is_looked_at_again_an_hour_later(settings, mailoutbox):
    settings.DIGEST_HOUR = 0
    idle, waited = _readers_waited_on(2, random.Random(12))
    for seat in Seat.objects.filter(user_id=idle, game__status=Game.PLAYING).select_related(
            "game"):
        others = [s.index for s in seat.game.seats.exclude(pk=seat.pk)]
        Game.objects.filter(pk=seat.game_id).update(waiting_on=others[:1])
    assert digests_send(NOW, batch=5).sent == 1
    assert readers_due(NOW + timedelta(minutes=59), batch=5) == []
    assert [u.pk for u in readers_due(NOW + timedelta(hours=1), batch=5)] == [idle]


def test_a_new_time_zone_or_choice_has_the_reader_looked_at_at_the_next_run(settings):
    from accounts.forms import SettingsForm
    from notifications.preferences import notice_settings_set

    settings.DIGEST_HOUR = 8
    (reader,) = _readers_waited_on(1, random.Random(6))
    User = get_user_model()
    tomorrow = datetime(2026, 3, 3, 8, tzinfo=UTC)
    User.objects.filter(pk=reader).update(digest_next=tomorrow)
    notice_settings_set(user=User.objects.get(pk=reader), timezone="Asia/Tokyo")
    assert User.objects.get(pk=reader).digest_next is None
    User.objects.filter(pk=reader).update(digest_next=tomorrow, email_on_turn="immediate")
    user = User.objects.get(pk=reader)
    form = SettingsForm({"language": "", "email_on_turn": "digest", "timezone": user.timezone},
                        instance=user)
    assert form.is_valid(), form.errors
    form.save()
    assert User.objects.get(pk=reader).digest_next is None
