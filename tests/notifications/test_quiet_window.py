"""The quiet window itself (lib.quiet_hours, no database): local times in the player's
zone, across midnight and across a change of summer time."""

from datetime import UTC, datetime, time, timedelta

from lib.quiet_hours import BEFORE_QUIET, before_quiet, quiet_until, quiet_window


def at(text: str) -> datetime:
    return datetime.fromisoformat(text).replace(tzinfo=UTC)


def test_a_window_across_midnight_holds_the_evening_and_the_early_morning():
    night = (time(22, 0), time(7, 0))
    # Madrid is UTC+1 in January: 22:00-07:00 there is 21:00-06:00 UTC
    assert quiet_until("Europe/Madrid", *night, at("2026-01-10T20:59")) is None
    assert quiet_until("Europe/Madrid", *night, at("2026-01-10T21:00")) == at("2026-01-11T06:00")
    assert quiet_until("Europe/Madrid", *night, at("2026-01-11T05:59")) == at("2026-01-11T06:00")
    assert quiet_until("Europe/Madrid", *night, at("2026-01-11T06:00")) is None


def test_a_window_within_one_day():
    lunch = (time(12, 0), time(14, 0))
    assert quiet_window("Asia/Tokyo", *lunch, at("2026-03-02T03:30")) == (
        at("2026-03-02T03:00"), at("2026-03-02T05:00"))
    assert quiet_window("Asia/Tokyo", *lunch, at("2026-03-02T05:00")) is None


def test_the_night_summer_time_begins_is_an_hour_shorter():
    # Madrid moves from UTC+1 to UTC+2 on 2026-03-29 at 02:00 local
    window = quiet_window("Europe/Madrid", time(22, 0), time(7, 0), at("2026-03-29T00:00"))
    assert window == (at("2026-03-28T21:00"), at("2026-03-29T05:00"))
    assert window[1] - window[0] == timedelta(hours=8)


def test_no_quiet_hours_without_both_ends_or_when_they_meet():
    moment = at("2026-03-02T03:30")
    assert quiet_window("UTC", None, time(7, 0), moment) is None
    assert quiet_window("UTC", time(3, 0), time(3, 0), moment) is None


def test_a_bad_stored_zone_reads_as_utc():
    assert quiet_until("Nowhere/Atlantis", time(3, 0), time(4, 0), at("2026-03-02T03:30")) \
        == at("2026-03-02T04:00")


def test_a_moment_in_quiet_hours_moves_to_just_before_they_begin():
    night = (time(22, 0), time(7, 0))
    assert before_quiet("UTC", *night, at("2026-03-03T02:00")) == at("2026-03-02T22:00") \
        - BEFORE_QUIET
    assert before_quiet("UTC", *night, at("2026-03-03T12:00")) == at("2026-03-03T12:00")
