"""The move path's hand-written SQL (lib.rows) reads and writes what the ORM would."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone

from clocks.models import SeatClock
from games import selectors, services
from games.models import Game, Move, Seat
from lib import rows
from tests.clocks.helpers import started_game

pytestmark = pytest.mark.django_db

LIVE = {"kind": "live", "minutes": 10}


def _fields(instance) -> dict:
    return {f.attname: getattr(instance, f.attname) for f in instance._meta.concrete_fields}


def _players():
    return [get_user_model().objects.create_user(n) for n in ("ann", "bob", "cat", "dan")]


def test_a_game_its_seats_and_their_users_load_as_the_orm_loads_them():
    game = started_game(_players(), LIVE)
    with transaction.atomic():
        loaded, seats = services._locked_game_and_seats(game.pk)
    assert _fields(loaded) == _fields(Game.objects.get(pk=game.pk))
    assert isinstance(loaded.deal, dict) and isinstance(loaded.started, type(timezone.now()))
    orm_seats = list(Seat.objects.filter(game=game).select_related("user").order_by("index"))
    assert [_fields(s) for s in seats] == [_fields(s) for s in orm_seats]
    assert [_fields(s.user) for s in seats] == [_fields(s.user) for s in orm_seats]
    assert all(s.game is loaded for s in seats)


def test_players_come_without_the_columns_no_move_reads_which_load_when_touched(
        django_assert_num_queries):
    game = started_game(_players(), LIVE)
    with transaction.atomic():
        _, seats = services._locked_game_and_seats(game.pk)
    user = seats[0].user
    assert user.get_deferred_fields() == set(selectors.USER_UNREAD)
    joined = get_user_model().objects.get(pk=user.pk).date_joined
    with django_assert_num_queries(1):
        assert user.date_joined == joined


def test_a_bot_seat_loads_without_a_user():
    ann = get_user_model().objects.create_user("ann")
    game = services.game_create(creator=ann, players=3, bots=["random", "basic"])
    with transaction.atomic():
        _, seats = services._locked_game_and_seats(game.pk)
    assert [s.index for s in seats] == [0, 1, 2]  # seats are drawn at the start
    person = next(s for s in seats if s.user_id is not None)
    bots = [s for s in seats if s is not person]
    assert person.user.username == "ann" and person.bot_level is None
    assert sorted(s.bot_level for s in bots) == ["basic", "random"]
    assert all(s.user is None for s in bots)


def test_a_missing_game_is_refused_as_missing():
    with transaction.atomic(), pytest.raises(services.GameNotFound):
        services._locked_game_and_seats(987654)


def test_an_inserted_row_reads_back_through_the_orm_with_its_defaults():
    game = started_game(_players(), LIVE)
    move = Move(game=game, seq=game.seq, seat=0, payload={"move": "done", "seat": 0})
    rows.insert(move)
    back = Move.objects.get(pk=move.pk)
    assert back.payload == {"move": "done", "seat": 0} and back.seq == game.seq
    assert abs((timezone.now() - back.created).total_seconds()) < 60


def test_an_update_writes_only_the_named_fields():
    game = started_game(_players(), LIVE)
    game.waiting_on = [3]
    game.result = {"scores": [1, 2, 3, 4]}
    game.status = Game.FINISHED  # not named: stays as stored
    rows.update(game, ["waiting_on", "result"])
    back = Game.objects.get(pk=game.pk)
    assert back.waiting_on == [3] and back.result == {"scores": [1, 2, 3, 4]}
    assert back.status == Game.PLAYING


def test_clock_rows_load_with_their_times():
    game = started_game(_players(), LIVE)
    from clocks.clocks import _clock_rows_locked

    with transaction.atomic():
        loaded = _clock_rows_locked(game.pk)
    orm = list(SeatClock.objects.filter(game=game).order_by("seat"))
    assert [_fields(c) for c in loaded] == [_fields(c) for c in orm]
    assert any(c.running_since is not None for c in loaded)


def test_several_rows_update_in_one_statement_each_with_its_own_values(
        django_assert_num_queries):
    game = started_game(_players(), LIVE)
    clocks = list(SeatClock.objects.filter(game=game).order_by("seat"))
    first, second, untouched = clocks[0], clocks[1], clocks[2]
    first.remaining, first.running_since, first.warned = 12.5, None, True
    second.remaining, second.running_since = 99.0, timezone.now()
    second.timeouts = 7  # not named: stays as stored
    with django_assert_num_queries(1):
        rows.update_many([first, second], ["remaining", "running_since", "warned"])
    back = {c.seat: c for c in SeatClock.objects.filter(game=game)}
    assert (back[0].remaining, back[0].running_since, back[0].warned) == (12.5, None, True)
    assert back[1].remaining == 99.0 and back[1].running_since == second.running_since
    assert back[1].warned is False and back[1].timeouts == 0
    assert _fields(back[2]) == _fields(untouched)


def test_a_locked_read_brings_the_clock_rows_as_the_orm_loads_them():
    from clocks.clocks import READ
    from games import events

    game = started_game(_players(), LIVE)
    with transaction.atomic(), events.write_scope():
        loaded = services._locked_game_and_seats(game.pk)[0]
        brought = events.noted(loaded, READ)
    orm = list(SeatClock.objects.filter(game=game).order_by("seat"))
    assert len(orm) == 4 and [_fields(c) for c in brought] == [_fields(c) for c in orm]


def test_held_updates_go_with_the_move_in_one_round_trip_and_reads_see_them(
        django_assert_num_queries):
    from django.db import connection

    game = started_game(_players(), LIVE)
    clock = SeatClock.objects.filter(game=game).order_by("seat").first()
    clock.remaining = 42.0
    game.seq += 1
    move = Move(game=game, seq=game.seq - 1, seat=0, payload={"move": "done", "seat": 0})
    together = connection.vendor == "postgresql"
    with django_assert_num_queries(1 if together else 3), rows.one_round_trip():
        rows.update(clock, ["remaining"])
        rows.insert_and_update(move, game, ["seq"])
    assert SeatClock.objects.get(pk=clock.pk).remaining == 42.0
    assert Game.objects.get(pk=game.pk).seq == game.seq and Move.objects.get(pk=move.pk)
    clock.remaining = 7.0
    with rows.one_round_trip():
        rows.update(clock, ["remaining"])
        assert rows.column(SeatClock, "remaining", "SELECT remaining FROM "
                           f"{SeatClock._meta.db_table} WHERE id = %s", [clock.pk]) == [7.0]


@pytest.mark.parametrize("text", [
    '{"kind": "live", "minutes": 10}', "[1, 2.5, null, true]", '"plain"', "3",
    '{"big": 123456789012345678901234567890}', "-9223372036854775809",  # beyond 64 bits
    "1e400", '"\\ud800"', '{"a": 1, "a": 2}', "not json",
])
def test_a_json_column_decodes_to_what_djangos_own_conversion_gives(text):
    field = Game._meta.get_field("time_control")
    col, convs = rows._field_converters(Game, "time_control", "postgresql")
    value = text
    for convert in convs:
        value = convert(value, col, None)
    expected = field.from_db_value(text, col, None)
    assert value == expected and type(value) is type(expected)
    assert type(value.get("big", 0) if isinstance(value, dict) else 0) is int


@pytest.mark.parametrize("text", ['[{"move": "pass", "seat": 1}]', "[12345678901234567890]",
                                  "1e400", "[]"])
def test_json_text_read_by_rows_equals_the_standard_librarys(text):
    assert rows.json_loads(text) == json.loads(text)
    assert type(rows.json_loads(text)) is type(json.loads(text))


def test_a_plain_json_column_is_decoded_by_orjson():
    col, convs = rows._field_converters(Game, "time_control", "postgresql")
    assert Game._meta.get_field("time_control").from_db_value not in convs
    assert convs[-1]('{"n": 1}', col, None) == {"n": 1}


def test_held_writes_to_the_table_the_move_writes_go_one_by_one_and_each_takes_effect(
        django_assert_num_queries):
    from django.db import connection

    game = started_game(_players(), LIVE)
    game.private = not game.private
    game.seq += 1
    move = Move(game=game, seq=game.seq - 1, seat=0, payload={"move": "done", "seat": 0})
    # one statement's parts share a snapshot: two writes to the games table in one would
    # keep only one of them
    with django_assert_num_queries(2 if connection.vendor == "postgresql" else 3), \
            rows.one_round_trip():
        rows.update(game, ["private"])
        rows.insert_and_update(move, game, ["seq"])
    stored = Game.objects.get(pk=game.pk)
    assert (stored.private, stored.seq) == (game.private, game.seq)
    assert Move.objects.filter(pk=move.pk).exists()
