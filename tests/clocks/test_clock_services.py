"""Clocks on real games under a frozen, moved clock: deadlines, bank, vacation, timeouts."""

from datetime import UTC, date, datetime, timedelta

import pytest
import time_machine

from clocks import clocks as clock_rows
from clocks import vacations
from clocks.models import SeatClock, Vacation
from clocks.tasks import clocks_sweep
from games.live import broadcast
from games.models import Game, Move, Seat
from games.services import BadRequest, game_create
from notifications.models import Notification

from .helpers import committed, move_random, started_game, user_at

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
DAY = timedelta(days=1)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def clocks(game) -> dict[int, SeatClock]:
    return {c.seat: c for c in SeatClock.objects.filter(game=game)}


def sweep() -> int:
    with committed():
        return clocks_sweep()


def test_a_started_game_runs_the_clocks_of_the_seats_it_waits_on(clock, ann, bob, cat):
    game = started_game([ann, bob, cat])
    rows = clocks(game)
    assert sorted(rows) == [0, 1, 2]
    for seat, row in rows.items():
        assert row.remaining == 3 * 86400
        if seat in game.waiting_on:
            assert row.running_since == T0 and row.deadline == T0 + 3 * DAY
            assert row.warn_at == T0 + 3 * DAY - 0.6 * DAY  # a fifth of 3 days left
        else:
            assert row.running_since is None and row.deadline is None
    clock_rows.clocks_start(game)  # twice: nothing changes
    assert SeatClock.objects.filter(game=game).count() == 3


def test_a_move_stops_the_movers_clock_and_starts_the_next(clock, ann, bob, cat):
    game = started_game([ann, bob, cat])
    mover = game.waiting_on[0]
    clock.shift(timedelta(hours=5))
    game = move_random(game, mover)
    rows = clocks(game)
    for seat, row in rows.items():
        if seat in game.waiting_on:
            assert row.running_since is not None
            assert row.deadline == row.running_since + 3 * DAY
        else:
            assert row.running_since is None and row.deadline is None
            assert row.remaining == 3 * 86400  # per move: a full clock next time
    view = clock_rows.clock_view(game)["clocks"]
    assert [c["seat"] for c in view] == [0, 1, 2]
    waited = game.waiting_on[0]
    assert view[waited]["running"] and view[waited]["remaining"] == 3 * 86400


def test_a_bank_is_charged_and_topped_up(clock, ann, bob, cat):
    tc = {"kind": "correspondence", "bank_days": 3, "increment_days": 1, "max_days": 7}
    game = started_game([ann, bob, cat], tc)
    mover = game.waiting_on[0]
    clock.shift(2 * DAY)
    game = move_random(game, mover)
    row = clocks(game)[mover]
    if mover not in game.waiting_on:
        assert row.remaining == 2 * 86400  # 3 - 2 + 1 days
    else:  # moved again at once: still charged 2 days, topped up 1
        assert row.remaining == 2 * 86400 and row.running_since == T0 + 2 * DAY


def test_a_timeout_makes_the_bot_move_for_the_player_once(clock, ann, bob, cat, mailoutbox):
    game = started_game([ann, bob, cat])
    waited = list(game.waiting_on)
    clock.shift(3 * DAY - timedelta(seconds=1))
    assert sweep() == 0
    clock.shift(timedelta(seconds=1))
    assert sweep() == len(waited)
    game.refresh_from_db()
    first = Move.objects.get(game=game, seq=0)
    assert first.seat in waited
    row = clocks(game)[first.seat]
    assert row.timeouts_in_row == 1 and row.timeouts == 1
    note = Notification.objects.get(kind="timeout", game=game, user=user_at(game, first.seat))
    assert "your time ran out" in note.text and "After 3 timeouts in a row" in note.text
    seq = game.seq
    assert sweep() == 0  # again at the same moment: nothing more
    game.refresh_from_db()
    assert game.seq == seq


def test_vacation_stops_the_clock_and_moves_the_deadline(clock, ann, bob, cat):
    game = started_game([ann, bob, cat])
    seat = game.waiting_on[0]
    player = user_at(game, seat)
    vacations.vacation_create(user=player, first_day=date(2026, 3, 3), last_day=date(2026, 3, 5))
    row = clocks(game)[seat]
    # 12 hours run on the 2nd, the clock stands still 3 days (3rd-5th), 2.5 days run after.
    assert row.deadline == datetime(2026, 3, 8, 12, tzinfo=UTC)
    clock.move_to(T0 + 4 * DAY)
    assert sweep() == 0
    assert clock_rows.clock_view(game)["clocks"][seat]["remaining"] == 2 * 86400
    clock.move_to(datetime(2026, 3, 8, 12, tzinfo=UTC))
    assert sweep() >= 1
    assert Move.objects.filter(game=game, seat=seat).exists()


def test_a_vacation_taken_after_the_deadline_was_stored_is_honoured(clock, ann, bob, cat):
    game = started_game([ann, bob, cat])
    seat = game.waiting_on[0]
    # A stale stored deadline (as if the vacation had been added by hand): the sweeper
    # checks the real clock before it times anyone out, and stores the true deadline.
    Vacation.objects.create(user=user_at(game, seat), start=T0, end=T0 + 10 * DAY)
    clock.shift(3 * DAY)
    sweep()
    assert not Move.objects.filter(game=game, seat=seat).exists()
    assert clocks(game)[seat].deadline == T0 + 13 * DAY


def test_vacation_rules_are_refused_clearly(clock, ann):
    vacations.vacation_create(user=ann, first_day=date(2026, 4, 1), last_day=date(2026, 4, 15))
    with pytest.raises(vacations.ClockError, match="only 5 of the 20 vacation days of 2026"):
        vacations.vacation_create(user=ann, first_day=date(2026, 5, 1), last_day=date(2026, 5, 6))
    with pytest.raises(vacations.ClockError, match="overlaps"):
        vacations.vacation_create(user=ann, first_day=date(2026, 4, 15), last_day=date(2026, 4, 16))
    with pytest.raises(vacations.ClockError, match="in the past"):
        vacations.vacation_create(user=ann, first_day=date(2026, 3, 1), last_day=date(2026, 3, 2))
    assert vacations.vacation_days_left(ann, 2026) == 5
    today = vacations.vacation_create(user=ann, first_day=date(2026, 3, 2),
                                     last_day=date(2026, 3, 2))
    assert today.start == T0  # from now, and today counts as one day
    assert vacations.vacation_days_left(ann, 2026) == 4
    with pytest.raises(vacations.ClockError, match="has begun"):
        vacations.vacation_cancel(user=ann, vacation_id=today.pk)
    later = ann.vacations.get(start__month=4)
    vacations.vacation_cancel(user=ann, vacation_id=later.pk)
    assert vacations.vacation_days_left(ann, 2026) == 19


def test_a_time_control_outside_the_presets_is_refused_with_a_sentence(ann):
    with pytest.raises(BadRequest, match='must be one of 1, 2, 3, 5 or 7'):
        game_create(creator=ann, players=3, bots=["basic", "basic"],
                    time_control={"kind": "correspondence", "days": 4})
    assert not Game.objects.exists()


def _play_until_seat_waited(game, seat, rng):
    """Others move (randomly) until the game waits on `seat` alone."""
    for _ in range(200):
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            return game
        others = [s for s in game.waiting_on if s != seat]
        if not others:
            return game
        game = move_random(game, others[0], rng)
    raise AssertionError("the game never came back to the seat")


def test_three_timeouts_in_a_row_hand_the_seat_to_the_bot(clock, ann, bob, cat):
    import random

    rng = random.Random(7)
    game = started_game([ann, bob, cat])
    seat = game.waiting_on[0]
    for n in (1, 2, 3):
        game = _play_until_seat_waited(game, seat, rng)
        assert game.status == Game.PLAYING
        clock.shift(3 * DAY)
        assert sweep() == 1
        row = clocks(game)[seat]
        assert row.timeouts_in_row == n
        assert Seat.objects.get(game=game, index=seat).bot_level == (
            "basic" if n == 3 else None)
    left = Seat.objects.get(game=game, index=seat)
    assert left.abandoned and left.abandoned_reason == Seat.TIMEOUTS  # ranks last
    # From now on the bot plays that seat at once; the others still move themselves.
    game = _play_until_seat_waited(game, seat, rng)
    game.refresh_from_db()
    assert game.status == Game.FINISHED or seat not in game.waiting_on


def test_the_seat_handed_to_the_bot_reaches_the_tables_sockets_at_the_same_seq(
        clock, ann, bob, cat, monkeypatch):
    # API.md: after every change each socket gets its view; a change without a move is
    # pushed with the same seq. The third timeout's move is sent before the seat changes.
    import random

    sent = []
    real = broadcast.views_send
    monkeypatch.setattr(broadcast, "views_send", lambda v: (sent.append(v), real(v)))
    rng = random.Random(7)
    game = started_game([ann, bob, cat])
    seat = game.waiting_on[0]
    for _ in range(3):
        game = _play_until_seat_waited(game, seat, rng)
        clock.shift(3 * DAY)
        del sent[:]
        assert sweep() == 1
    game.refresh_from_db()
    seq = Move.objects.filter(game=game, seat=seat).order_by("-seq").first().seq + 1
    other = next(u for u in (ann, bob, cat) if u.pk != Seat.objects.get(
        game=game, index=seat).user_id)
    at_seq = [v.for_user(other)["players"][seat]["abandoned"] for v in sent if v.seq == seq]
    assert at_seq == [False, True]  # the move, then the seat handed over


def test_a_players_own_move_resets_the_timeouts_in_a_row(clock, ann, bob, cat):
    import random

    rng = random.Random(3)
    game = started_game([ann, bob, cat])
    seat = game.waiting_on[0]
    game = _play_until_seat_waited(game, seat, rng)
    clock.shift(3 * DAY)
    assert sweep() == 1
    assert clocks(game)[seat].timeouts_in_row == 1
    game = _play_until_seat_waited(game, seat, rng)
    game = move_random(game, seat, rng)
    assert clocks(game)[seat].timeouts_in_row == 0
    assert clocks(game)[seat].timeouts == 1


def test_live_clock_with_increment(clock, ann, bob, cat):
    tc = {"kind": "live", "minutes": 1, "increment": 5, "max_minutes": 2}
    game = started_game([ann, bob, cat], tc)
    mover = game.waiting_on[0]
    clock.shift(timedelta(seconds=20))
    game = move_random(game, mover)
    row = clocks(game)[mover]
    assert row.remaining == 45 and row.warn_at is None  # live games send no warnings
    waited = game.waiting_on[0]
    clock.shift(timedelta(seconds=61))
    assert sweep() >= 1
    assert Move.objects.filter(game=game, seat=waited).exists()


def test_a_live_deadline_is_checked_at_the_deadline_and_names_its_seq(clock, ann, bob, cat):
    from clocks.tasks import deadline_check

    game = started_game([ann, bob, cat], {"kind": "live", "minutes": 1})
    seq = game.seq
    assert deadline_check(game.pk, seq) == 0  # not due yet
    clock.shift(timedelta(seconds=60))
    with committed():
        made = deadline_check(game.pk, seq)
        # every seat waited on times out; a seat the bot's move leaves to move again has no
        # time left and times out again in the same check (the deal decides: it is random)
        assert made >= len(game.waiting_on)
        assert deadline_check(game.pk, seq) == 0  # the game moved on: nothing
    assert Move.objects.filter(game=game).count() == made


def _live_checks_watched(monkeypatch) -> tuple[list, list]:
    """(the live checks queued, the cache reads of live-check keys), as they happen."""
    from django.core.cache import cache

    from clocks.tasks import deadline_check

    queued, reads = [], []
    monkeypatch.setattr(deadline_check, "apply_async",
                        lambda args, countdown: queued.append((args, countdown)))
    real_get = cache.get
    monkeypatch.setattr(cache, "get", lambda key, *a, **kw: (
        reads.append(key) if key.startswith("live-check:") else None) or real_get(key, *a, **kw))
    return queued, reads


def test_moves_of_a_live_game_queue_one_deadline_check_and_read_no_cache_for_it(
        clock, ann, bob, cat, monkeypatch):
    queued, reads = _live_checks_watched(monkeypatch)
    game = started_game([ann, bob, cat], {"kind": "live", "minutes": 1})
    assert len(queued) == 1 and queued[0][0] == (game.pk, game.seq)
    reads.clear()
    for _ in range(6):  # each move starts a clock whose deadline comes after the queued one
        clock.shift(timedelta(seconds=2))
        game = move_random(game, game.waiting_on[0])
    assert len(queued) == 1 and reads == []
    clock.shift(timedelta(seconds=60))  # past the queued check: it may have run
    game = move_random(game, game.waiting_on[0])
    assert reads == [f"live-check:{game.pk}"]


def test_a_check_another_process_queued_is_read_from_the_cache_once(
        clock, ann, bob, cat, monkeypatch):
    from clocks.clocks import live_checks_forget

    queued, reads = _live_checks_watched(monkeypatch)
    game = started_game([ann, bob, cat], {"kind": "live", "minutes": 1})
    live_checks_forget()  # as a process that did not queue it
    reads.clear()
    for _ in range(4):
        clock.shift(timedelta(seconds=2))
        game = move_random(game, game.waiting_on[0])
    assert len(queued) == 1 and reads == [f"live-check:{game.pk}"]
