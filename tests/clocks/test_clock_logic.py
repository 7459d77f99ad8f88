"""The pure clock arithmetic: explicit `now` values, no database."""

from datetime import UTC, datetime, timedelta
from zoneinfo import ZoneInfo

import pytest

from clocks import clock as C
from clocks.clock import Clock

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)


def at(**kw) -> datetime:
    return T0 + timedelta(**kw)


# ---- validation -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "tc, message",
    [
        (None, "must be an object"),
        ({}, '"kind" must be "live" or "correspondence"'),
        ({"kind": "blitz"}, '"kind" must be'),
        ({"kind": "live"}, 'needs "minutes"'),
        ({"kind": "live", "minutes": 0}, '"minutes" must be a whole number from 1 to 180'),
        ({"kind": "live", "minutes": True}, '"minutes" must be a whole number'),
        ({"kind": "live", "minutes": 2.5}, '"minutes" must be a whole number'),
        ({"kind": "live", "minutes": 5, "increment": -1}, '"increment"'),
        ({"kind": "live", "minutes": 5, "max_minutes": 4}, "cannot be less than"),
        ({"kind": "live", "minutes": 5, "days": 1}, "unknown time control field 'days'"),
        ({"kind": "correspondence"}, 'needs "days" (per move) or "bank_days"'),
        ({"kind": "correspondence", "days": 4}, "must be one of 1, 2, 3, 5 or 7"),
        ({"kind": "correspondence", "days": 3, "bank_days": 3}, "unknown time control field"),
        ({"kind": "correspondence", "bank_days": 8}, '"bank_days" must be a whole number'),
        ({"kind": "correspondence", "bank_days": 3, "max_days": 9}, '"max_days"'),
        ({"kind": "correspondence", "bank_days": 5, "max_days": 3}, "cannot be less than"),
    ],
)
def test_bad_time_controls_are_refused_with_a_reason(tc, message):
    with pytest.raises(C.TimeControlError) as e:
        C.parse_time_control(tc)
    assert message in str(e.value)


def test_time_controls_in_seconds():
    live = C.parse_time_control({"kind": "live", "minutes": 10, "increment": 5,
                                 "max_minutes": 12})
    assert (live.initial, live.increment, live.cap, live.per_move) == (600, 5, 720, False)
    assert not live.vacations_apply
    assert C.parse_time_control({"kind": "live", "minutes": 10}).cap == 600
    per_move = C.parse_time_control({"kind": "correspondence", "days": 3})
    assert (per_move.initial, per_move.cap, per_move.per_move) == (3 * 86400, 3 * 86400, True)
    bank = C.parse_time_control({"kind": "correspondence", "bank_days": 3})
    assert (bank.initial, bank.increment, bank.cap) == (3 * 86400, 86400, 7 * 86400)
    assert bank.vacations_apply and bank.warn_reserve == pytest.approx(0.2 * 7 * 86400)


# ---- running clocks ---------------------------------------------------------------------

LIVE = C.parse_time_control({"kind": "live", "minutes": 5, "increment": 10, "max_minutes": 6})


def test_only_the_waited_seats_clocks_run():
    clocks = C.clocks_start(LIVE, 4, [2], T0)
    assert [c.running for c in clocks] == [False, False, True, False]
    assert C.remaining_at(clocks[2], at(seconds=40)) == 260
    assert C.remaining_at(clocks[0], at(seconds=40)) == 300
    assert C.deadline(clocks[2]) == at(minutes=5)
    assert C.deadline(clocks[0]) is None


def test_a_move_charges_the_mover_adds_the_increment_and_starts_the_next():
    clocks = C.clocks_start(LIVE, 3, [0], T0)
    clocks = C.clocks_on_move(LIVE, clocks, mover=0, waiting_after=[1], now=at(seconds=30))
    assert clocks[0] == Clock(280.0, None)
    assert clocks[1] == Clock(300.0, at(seconds=30))
    assert clocks[2] == Clock(300.0, None)


def test_the_increment_is_capped():
    clocks = C.clocks_start(LIVE, 3, [0], T0)
    for _ in range(20):  # quick moves pile up increments, but only up to max_minutes
        clocks = C.clocks_on_move(LIVE, clocks, mover=0, waiting_after=[0], now=T0)
    assert clocks[0].remaining == 360


def test_bets_run_several_clocks_at_once_and_stop_each_on_its_move():
    clocks = C.clocks_start(LIVE, 3, [0, 1, 2], T0)
    clocks = C.clocks_on_move(LIVE, clocks, mover=1, waiting_after=[0, 2], now=at(seconds=20))
    assert clocks[1] == Clock(290.0, None)
    assert clocks[0] == Clock(300.0, T0)  # still running from the start, untouched
    clocks = C.clocks_on_move(LIVE, clocks, mover=0, waiting_after=[2], now=at(seconds=50))
    assert clocks[0] == Clock(260.0, None)
    assert C.remaining_at(clocks[2], at(seconds=60)) == 240


def test_a_timed_out_mover_is_charged_down_to_zero_only():
    clocks = C.clocks_start(LIVE, 3, [0], T0)
    assert not C.timed_out(clocks[0], at(seconds=299))
    assert C.timed_out(clocks[0], at(seconds=300))
    clocks = C.clocks_on_move(LIVE, clocks, mover=0, waiting_after=[1], now=at(seconds=330))
    assert clocks[0].remaining == 10  # 0 + increment


def test_per_move_correspondence_refills_every_turn():
    tc = C.parse_time_control({"kind": "correspondence", "days": 2})
    clocks = C.clocks_start(tc, 3, [0, 1], T0)
    assert C.deadline(clocks[0]) == T0 + 2 * DAY
    clocks = C.clocks_on_move(tc, clocks, mover=0, waiting_after=[2], now=T0 + 1.5 * DAY)
    assert clocks[0] == Clock(2 * 86400.0, None)
    # Seat 1 stopped being waited on without moving: its next turn is a full one too.
    assert clocks[1] == Clock(2 * 86400.0, None)
    assert C.deadline(clocks[2]) == T0 + 3.5 * DAY


def test_correspondence_bank_with_increment_capped_at_seven_days():
    tc = C.parse_time_control({"kind": "correspondence", "bank_days": 3, "increment_days": 1,
                               "max_days": 7})
    clocks = C.clocks_start(tc, 3, [0], T0)
    clocks = C.clocks_on_move(tc, clocks, mover=0, waiting_after=[1], now=T0 + 2 * DAY)
    assert clocks[0].remaining == 2 * 86400  # 3 - 2 + 1 days
    for _ in range(10):
        clocks = C.clocks_on_move(tc, clocks, mover=0, waiting_after=[0], now=T0 + 2 * DAY)
    assert clocks[0].remaining == 7 * 86400


def test_warning_time_is_a_fifth_of_the_full_clock_before_the_deadline():
    tc = C.parse_time_control({"kind": "correspondence", "days": 5})
    clocks = C.clocks_start(tc, 3, [0], T0)
    assert C.deadline(clocks[0], reserve=tc.warn_reserve) == T0 + 4 * DAY


def test_naive_datetimes_are_refused():
    with pytest.raises(ValueError, match="timezone-aware"):
        C.clocks_start(LIVE, 3, [0], datetime(2026, 1, 1))


# ---- vacations --------------------------------------------------------------------------

CORR = C.parse_time_control({"kind": "correspondence", "days": 3})


def test_the_clock_stands_still_during_a_vacation():
    clocks = C.clocks_start(CORR, 3, [0], T0)
    vac = [(T0 + DAY, T0 + 3 * DAY)]
    assert C.remaining_at(clocks[0], T0 + 2 * DAY, vac) == 2 * 86400
    assert C.remaining_at(clocks[0], T0 + 3 * DAY, vac) == 2 * 86400
    assert C.remaining_at(clocks[0], T0 + 4 * DAY, vac) == 86400
    assert C.deadline(clocks[0], vac) == T0 + 5 * DAY
    assert not C.timed_out(clocks[0], T0 + 4.9 * DAY, vac)
    assert C.timed_out(clocks[0], T0 + 5 * DAY, vac)


def test_deadline_skips_several_and_overlapping_vacations():
    clock = Clock(3 * 86400.0, T0)
    vac = [(T0 + 4 * DAY, T0 + 6 * DAY), (T0 + DAY, T0 + 2 * DAY), (T0 + 1.5 * DAY,
                                                                     T0 + 2.5 * DAY)]
    # 1 day, paused 1.5 days, 1.5 days more, paused 2 days, the last half day.
    assert C.deadline(clock, vac) == T0 + 6.5 * DAY
    assert C.deadline(Clock(3 * 86400.0, T0 + 1.2 * DAY), vac) == T0 + 7.5 * DAY


def test_a_move_after_a_vacation_is_charged_without_it():
    clocks = C.clocks_start(CORR, 3, [0], T0)
    vac = {0: [(T0, T0 + 2 * DAY)]}
    after = C.clocks_on_move(CORR, clocks, mover=0, waiting_after=[1], now=T0 + 2.5 * DAY,
                             vacations=vac)
    assert after[0].remaining == 3 * 86400  # per move: refilled, and it never ran out


def test_live_clocks_ignore_vacations():
    clocks = C.clocks_start(LIVE, 3, [0], T0)
    vac = {0: [(T0, T0 + DAY)]}
    after = C.clocks_on_move(LIVE, clocks, mover=0, waiting_after=[1], now=at(seconds=100),
                             vacations=vac)
    assert after[0].remaining == 210


def test_vacation_days_are_counted_in_the_players_time_zone_per_year():
    tz = ZoneInfo("Europe/Berlin")
    start, end = C.local_day_bounds(datetime(2026, 12, 30).date(),
                                    datetime(2027, 1, 2).date(), tz)
    assert C.vacation_days(start, end, tz) == {2026: 2, 2027: 2}
    # The day the clocks change has 25 hours and is still one day.
    start, end = C.local_day_bounds(datetime(2026, 10, 25).date(),
                                    datetime(2026, 10, 25).date(), tz)
    assert end.timestamp() - start.timestamp() == 25 * 3600
    assert C.vacation_days(start, end, tz) == {2026: 1}


def test_vacations_in_a_local_zone_are_measured_in_real_hours():
    tz = ZoneInfo("Europe/Berlin")
    start, end = C.local_day_bounds(datetime(2026, 10, 25).date(),
                                    datetime(2026, 10, 25).date(), tz)
    clock = Clock(3600.0, start)
    assert C.elapsed(start, end + timedelta(hours=1), [(start, end)]) == 3600
    assert C.deadline(clock, [(start, end)]) == end + timedelta(hours=1)


def test_vacation_allowance_is_twenty_days_a_year():
    tz = ZoneInfo("UTC")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    first = C.local_day_bounds(datetime(2026, 2, 1).date(), datetime(2026, 2, 15).date(), tz)
    assert C.vacation_check(*first, [], tz, now) == {2026: 15}
    five = C.local_day_bounds(datetime(2026, 6, 1).date(), datetime(2026, 6, 5).date(), tz)
    assert C.vacation_check(*five, [first], tz, now) == {2026: 5}
    six = C.local_day_bounds(datetime(2026, 6, 1).date(), datetime(2026, 6, 6).date(), tz)
    with pytest.raises(C.VacationError, match="needs 6 days of 2026 but only 5 of the 20"):
        C.vacation_check(*six, [first], tz, now)
    # The next year has its own 20 days.
    nxt = C.local_day_bounds(datetime(2027, 2, 1).date(), datetime(2027, 2, 20).date(), tz)
    assert C.vacation_check(*nxt, [first, five], tz, now) == {2027: 20}


def test_vacations_that_overlap_start_in_the_past_or_end_first_are_refused():
    tz = ZoneInfo("UTC")
    with pytest.raises(C.VacationError, match="overlaps"):
        C.vacation_check(T0 + DAY, T0 + 3 * DAY, [(T0 + 2 * DAY, T0 + 4 * DAY)], tz, T0)
    with pytest.raises(C.VacationError, match="in the past"):
        C.vacation_check(T0 - DAY, T0 + DAY, [], tz, T0)
    with pytest.raises(C.VacationError, match="end after it starts"):
        C.vacation_check(T0 + DAY, T0 + DAY, [], tz, T0)


def test_clock_state_for_the_view():
    clocks = C.clocks_start(CORR, 3, [0], T0)
    state = C.clock_state(CORR, clocks[0], T0 + DAY, [(T0 + DAY, T0 + 2 * DAY)])
    assert state == {"remaining": 2 * 86400, "running": True,
                     "deadline": (T0 + 4 * DAY).isoformat(), "paused": True}
    assert C.clock_state(CORR, clocks[1], T0)["deadline"] is None


def test_clock_module_never_imports_django():
    text = open(C.__file__).read()
    assert "django" not in text
