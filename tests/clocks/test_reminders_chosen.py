"""Reminders the player chose: each point before a deadline fires once a turn; points
already behind when the turn begins are skipped; a deadline inside quiet hours is
reminded before they begin; players who chose nothing keep the one warning at a fifth of
the clock. Real games under a frozen, moved clock; the sweeper as beat runs it."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine
from django.db import connection
from django.test.utils import CaptureQueriesContext

from clocks.models import SeatClock
from clocks.tasks import clocks_sweep
from clocks.timeouts import clocks_warn
from notifications.models import Notification
from notifications.preferences import notice_settings_set

from .helpers import committed, move_random, started_game, user_at

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)  # 21:00 in Tokyo
DAY, HOUR = timedelta(days=1), timedelta(hours=1)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def sweep():
    with committed():
        clocks_sweep()


def reminders_to(mailoutbox, user) -> int:
    return sum(1 for m in mailoutbox if m.to == [user.email] and "Almost out" in m.subject)


def waiting_row(game) -> SeatClock:
    return SeatClock.objects.get(game=game, seat=game.waiting_on[0])


def test_each_chosen_reminder_fires_once_in_a_turn(clock, ann, bob, cat, mailoutbox):
    for user in (ann, bob, cat):
        notice_settings_set(user=user, reminder_hours=[2, 48, 24])
    game = started_game([ann, bob, cat])  # 3 days: reminders 2 days, 1 day, 2 h ahead
    player = user_at(game, game.waiting_on[0])
    assert waiting_row(game).warn_at == T0 + DAY
    expected = [(DAY - timedelta(minutes=1), 0), (DAY, 1), (DAY + HOUR, 1), (2 * DAY, 2),
                (2 * DAY + timedelta(minutes=1), 2), (3 * DAY - 2 * HOUR, 3),
                (3 * DAY - HOUR, 3), (3 * DAY - timedelta(minutes=1), 3)]
    for at, count in expected:
        clock.move_to(T0 + at)
        sweep()
        sweep()  # twice: nothing more
        assert reminders_to(mailoutbox, player) == count, at
    row = waiting_row(game)
    assert row.warned and row.warn_at is None and row.reminded == 3
    # one live notice of the kind, updated by each reminder
    assert Notification.objects.filter(user=player, game=game, kind="almost_out").count() == 1


def test_points_already_behind_when_the_turn_begins_are_skipped(clock, ann, bob, cat,
                                                                mailoutbox):
    for user in (ann, bob, cat):
        notice_settings_set(user=user, reminder_hours=[96, 72, 2])
    game = started_game([ann, bob, cat])  # 3 days left: 96 h is behind, 72 h is now
    player = user_at(game, game.waiting_on[0])
    row = waiting_row(game)
    assert row.reminded == 2 and row.warn_at == T0 + 3 * DAY - 2 * HOUR
    sweep()
    assert reminders_to(mailoutbox, player) == 0  # "your turn" said it all just now
    clock.move_to(row.warn_at)
    sweep()
    assert reminders_to(mailoutbox, player) == 1


def test_players_who_chose_nothing_keep_the_warning_at_a_fifth(clock, ann, bob, cat,
                                                               mailoutbox):
    notice_settings_set(user=ann, reminder_hours=[24])
    game = started_game([ann, bob, cat])
    for seat in game.waiting_on:
        user = user_at(game, seat)
        row = SeatClock.objects.get(game=game, seat=seat)
        fifth = T0 + 3 * DAY - 0.6 * DAY
        assert row.warn_at == (T0 + 2 * DAY if user == ann else fifth)


def test_a_deadline_inside_quiet_hours_is_reminded_before_they_begin(clock, ann, bob, cat,
                                                                    mailoutbox):
    # Tokyo is UTC+9: the deadline, T0 + 3 days, is 21:00 there, inside 18:00-07:00.
    for user in (ann, bob, cat):
        notice_settings_set(user=user, timezone="Asia/Tokyo", quiet_start="18:00",
                            quiet_end="07:00", reminder_hours=[2])
    game = started_game([ann, bob, cat])
    player = user_at(game, game.waiting_on[0])
    row = waiting_row(game)
    quiet_begins = datetime(2026, 3, 5, 9, 0, tzinfo=UTC)  # 18:00 in Tokyo
    assert row.deadline == T0 + 3 * DAY and quiet_begins < row.deadline
    assert row.warn_at == quiet_begins - timedelta(minutes=5)  # not 2 h before: 19:00
    clock.move_to(row.warn_at)
    sweep()
    assert reminders_to(mailoutbox, player) == 1  # sent at once, not held for the morning
    note = Notification.objects.get(user=player, game=game, kind="almost_out")
    assert note.release_at is None and note.emailed


def test_a_turn_that_begins_in_quiet_hours_is_told_when_they_end(ann, bob, cat, mailoutbox):
    # 12:00 UTC is 21:00 in Tokyo: quiet until 07:00. A one-day clock ends at 21:00 the
    # next day: "your turn" is held for the summary at 07:00, and the reminder at a fifth
    # left (19:12) comes before the next quiet hours (20:00), unmoved.
    with time_machine.travel(T0, tick=False):
        for user in (ann, bob, cat):
            notice_settings_set(user=user, timezone="Asia/Tokyo", quiet_start="20:00",
                                quiet_end="07:00")
        game = started_game([ann, bob, cat], {"kind": "correspondence", "days": 1})
        player = user_at(game, game.waiting_on[0])
        turn = Notification.objects.get(user=player, game=game, kind="your_turn")
        assert turn.release_at == datetime(2026, 3, 2, 22, 0, tzinfo=UTC)  # 07:00 Tokyo
        assert mailoutbox == []
        row = waiting_row(game)
        # the fifth (19:12 Tokyo next day) is before the next quiet hours (20:00): as is
        assert row.warn_at == T0 + DAY - 0.2 * DAY


def test_the_reminder_job_reads_as_many_queries_with_three_times_the_running_clocks(
        clock, ann, bob, cat):
    """Only clocks whose reminder is due are read (indexed `warn_at`): running clocks not
    yet due cost nothing."""
    for user in (ann, bob, cat):
        notice_settings_set(user=user, reminder_hours=[24, 2])
    games = [started_game([ann, bob, cat]) for _ in range(2)]
    due = waiting_row(games[0])

    def queries() -> int:
        SeatClock.objects.filter(pk=due.pk).update(warn_at=T0, warned=False, reminded=0)
        Notification.objects.filter(kind="almost_out").delete()
        with CaptureQueriesContext(connection) as seen, committed():
            assert clocks_warn(T0) == 1
        return len(seen)

    few = queries()
    games += [started_game([ann, bob, cat]) for _ in range(4)]
    assert SeatClock.objects.filter(warn_at__isnull=False).count() >= 6
    assert queries() == few


def test_a_move_starts_the_next_players_reminders_at_their_own_points(clock, ann, bob, cat):
    notice_settings_set(user=ann, reminder_hours=[30])
    notice_settings_set(user=bob, reminder_hours=[5, 1])
    game = started_game([ann, bob, cat])
    for _ in range(40):  # play until someone else's clock starts
        first = game.waiting_on[0]
        clock.move_to(T0 + HOUR)
        game = move_random(game, first)
        if game.waiting_on and game.waiting_on[0] != first:
            break
    row = waiting_row(game)
    user = user_at(game, row.seat)
    lead = {ann: 30 * HOUR, bob: 5 * HOUR}.get(user, 0.2 * 3 * DAY)
    assert row.running_since == T0 + HOUR and row.reminded == 0
    assert row.warn_at == row.deadline - lead


def test_new_choices_move_the_reminders_of_a_turn_already_running(clock, ann, bob, cat,
                                                                  mailoutbox):
    game = started_game([ann, bob, cat])
    player = user_at(game, game.waiting_on[0])
    assert waiting_row(game).warn_at == T0 + 3 * DAY - 0.6 * DAY  # the default fifth
    clock.move_to(T0 + DAY + 12 * HOUR)  # 36 h left: the 48 h point is behind
    notice_settings_set(user=player, reminder_hours=[48, 6])
    row = waiting_row(game)
    assert row.reminded == 1 and row.warn_at == T0 + 3 * DAY - 6 * HOUR
    # quiet hours 05:00-14:00 UTC hold the deadline (12:00) and the 6 h point (06:00):
    # the reminder comes before they begin
    notice_settings_set(user=player, quiet_start="05:00", quiet_end="14:00")
    assert waiting_row(game).warn_at == T0 + 3 * DAY - 7 * HOUR - timedelta(minutes=5)
    clock.move_to(T0 + 3 * DAY - 7 * HOUR - timedelta(minutes=5))
    sweep()
    assert reminders_to(mailoutbox, player) == 1
    row = waiting_row(game)
    assert row.warned and row.warn_at is None
    notice_settings_set(user=player, reminder_hours=[8])  # said already: not again
    assert waiting_row(game).warn_at is None
    sweep()
    assert reminders_to(mailoutbox, player) == 1
