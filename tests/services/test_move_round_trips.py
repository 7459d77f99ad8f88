"""A move outside any transaction is two round trips to PostgreSQL: BEGIN goes with its
locked read, COMMIT with its write (lib.round_trips). Whatever fails on the way
leaves nothing written and the connection as Django expects it."""

import os
import random
import tempfile
from contextlib import contextmanager

import psycopg
import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction

from clocks.models import SeatClock
from games import services
from games.engine import legal_moves
from games.errors import IllegalMove
from games.models import Game, Move
from games.selectors import game_state
from tests.clocks.helpers import started_game, user_at

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="pipelines are PostgreSQL's"),
]

LIVE = {"kind": "live", "minutes": 10}


@contextmanager
def _round_trips():
    """Counts the round trips of the block on Django's connection: libpq's own trace of
    the protocol, one ReadyForQuery a round trip (a query's or a pipeline's Sync)."""
    connection.ensure_connection()
    pgconn = connection.connection.pgconn
    fd, path = tempfile.mkstemp()
    counted = []
    try:
        pgconn.trace(fd)
        pgconn.set_trace_flags(psycopg.pq.Trace.SUPPRESS_TIMESTAMPS)
        try:
            yield counted
        finally:
            pgconn.untrace()
        with open(path) as trace:
            text = trace.read()
        counted.append(sum("\tReadyForQuery\t" in line for line in text.splitlines()))
        counted.append(text)
    finally:
        os.close(fd)
        os.unlink(path)


def _game():
    users = [get_user_model().objects.create_user(n) for n in ("ann", "bob", "cat", "dan")]
    return started_game(users, LIVE)


def _move_of(game, seat=None) -> tuple[int, dict]:
    state = game_state(game)
    seat = state.waiting_on[0] if seat is None else seat
    move = dict(random.Random(3).choice(legal_moves(state, seat)))
    del move["seat"]
    return seat, move


def _clocks(game) -> list[tuple]:
    return list(SeatClock.objects.filter(game=game).order_by("seat")
                .values_list("remaining", "running_since"))


def test_a_move_is_two_round_trips_and_is_committed_when_move_play_returns():
    game = _game()
    seat, move = _move_of(game)
    user = user_at(game, seat)
    user.language  # noqa: B018 (read before the count)
    with _round_trips() as counted:
        services.move_play(game_id=game.pk, user=user, seq=game.seq, move=move)
    assert counted[0] == 2, counted[1]
    # seen from another connection: committed
    params = connection.get_connection_params()
    params.pop("cursor_factory", None)
    with psycopg.connect(**params, autocommit=True) as other:
        assert other.execute("SELECT seq FROM games_game WHERE id = %s",
                             [game.pk]).fetchone() == (game.seq + 1,)
        assert other.execute("SELECT seat FROM games_move WHERE game_id = %s AND seq = %s",
                             [game.pk, game.seq]).fetchone() == (seat,)
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE
    assert transaction.get_autocommit()


def test_a_move_inside_a_transaction_leaves_its_end_to_that_transaction():
    game = _game()
    seat, move = _move_of(game)
    with pytest.raises(RuntimeError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(watched_until=None)  # the outer one began
        services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq, move=move)
        raise RuntimeError("the outer transaction fails after the move")
    assert Game.objects.get(pk=game.pk).seq == game.seq
    assert not Move.objects.filter(game=game, seq=game.seq).exists()


def test_a_refused_move_writes_nothing_and_the_next_transactions_run_as_django_expects():
    game = _game()
    seat, move = _move_of(game)
    clocks = _clocks(game)
    with pytest.raises(IllegalMove):
        services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq,
                           move={"move": "no such move"})
    assert Game.objects.get(pk=game.pk).seq == game.seq and _clocks(game) == clocks
    assert transaction.get_autocommit() and connection.connection.autocommit is True
    # an ordinary atomic block after it still rolls back
    with pytest.raises(RuntimeError), transaction.atomic():
        Game.objects.filter(pk=game.pk).update(seq=999)
        raise RuntimeError
    assert Game.objects.get(pk=game.pk).seq == game.seq

    services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq, move=move)
    assert Game.objects.get(pk=game.pk).seq == game.seq + 1


def test_a_write_that_fails_with_its_commit_rolls_back_the_whole_move():
    game = _game()
    seat, move = _move_of(game)
    clocks = _clocks(game)
    # a row already at the move's seq: the move's INSERT breaks the unique (game, seq)
    Move.objects.create(game=game, seq=game.seq, seat=seat, payload={"move": "x"})
    with pytest.raises(IntegrityError):
        services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq, move=move)
    assert Game.objects.get(pk=game.pk).seq == game.seq
    assert _clocks(game) == clocks  # the clocks' UPDATE went with it, and back with it
    assert connection.connection.info.transaction_status == psycopg.pq.TransactionStatus.IDLE


def test_the_move_that_ends_a_game_commits_the_end_with_it():
    game = _game()
    rng = random.Random(5)
    for _ in range(5000):
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            break
        state = game_state(game)
        seat = state.waiting_on[0]
        move = dict(rng.choice(legal_moves(state, seat)))
        del move["seat"]
        services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq, move=move)
    assert game.status == Game.FINISHED and game.result["ranking"]
    # game_ended's listeners ran in the move's transaction: the clocks stopped
    assert not SeatClock.objects.filter(game=game, running_since__isnull=False).exists()
    assert transaction.get_autocommit()


def _sql_prepared() -> list[str]:
    """The statements SQL's PREPARE made on this connection, their names left out."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT regexp_replace(statement, '^PREPARE [a-z_0-9]+ AS ', '')"
                       " FROM pg_prepared_statements WHERE from_sql ORDER BY statement")
        return [text for (text,) in cursor.fetchall()]


def _locked_reads() -> list[str]:
    return [text for text in _sql_prepared() if "FOR UPDATE" in text]


def _play(game) -> None:
    game.refresh_from_db()
    seat, move = _move_of(game)
    services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq, move=move)


def test_a_moves_statements_are_prepared_once_a_connection_and_run_by_name_after():
    game = _game()
    for _ in range(6):
        _play(game)
    prepared = _sql_prepared()
    assert len(_locked_reads()) == 1 and any("INSERT INTO" in t for t in prepared)
    assert len(set(prepared)) == len(prepared)  # none prepared twice


@pytest.mark.parametrize("how", ["psycopg", "behind its back"])
def test_a_move_after_the_prepared_statements_were_dropped_prepares_its_read_again(how):
    game = _game()
    _play(game)
    if how == "psycopg":  # psycopg's rollback() sends DEALLOCATE ALL
        with pytest.raises(IllegalMove):
            services.move_play(game_id=game.pk, user=user_at(game, game_state(game).waiting_on[0]),
                               seq=Game.objects.get(pk=game.pk).seq, move={"move": "no such"})
    else:
        connection.connection.execute("DEALLOCATE ALL", prepare=False)
    assert _sql_prepared() == []
    seq = Game.objects.get(pk=game.pk).seq
    _play(game)
    assert Game.objects.get(pk=game.pk).seq == seq + 1
    assert len(_locked_reads()) == 1 and len(_sql_prepared()) == 2  # the read, the write


def test_without_prepared_statements_a_move_is_still_two_round_trips(settings):
    settings.DB_PREPARED_STATEMENTS = False
    game = _game()
    seat, move = _move_of(game)
    user = user_at(game, seat)
    user.language  # noqa: B018 (read before the count)
    before = _sql_prepared()  # (the connection may come from an earlier test)
    with _round_trips() as counted:
        services.move_play(game_id=game.pk, user=user, seq=game.seq, move=move)
    assert counted[0] == 2, counted[1]
    assert _sql_prepared() == before and Game.objects.get(pk=game.pk).seq == game.seq + 1


def test_values_written_into_the_committing_query_read_back_as_the_orm_wrote_them():
    from django.utils import timezone

    from lib import rows

    game = _game()
    when = timezone.now().replace(microsecond=123456)
    payload = {"move": "x", "note": "100% 'quoted' \\\\ \"back\" ñ %s $1", "n": 1.1,
               "deep": [None, True]}
    with _round_trips() as counted, transaction.atomic():
        rows.select("SELECT id FROM games_game WHERE id = %s FOR UPDATE", [game.pk], opens=True)
        game.seq += 1
        game.waiting_on = [3, 1]
        game.bot_turn_since = when
        move = Move(game=game, seq=game.seq - 1, seat=2, payload=payload)
        rows.insert_and_update(move, game, ["seq", "waiting_on", "bot_turn_since"], commits=True)
    assert counted[0] == 2, counted[1]  # BEGIN with the read, COMMIT with the write
    stored = Game.objects.get(pk=game.pk)
    assert (stored.seq, stored.waiting_on, stored.bot_turn_since) == (game.seq, [3, 1], when)
    assert Move.objects.get(pk=move.pk).payload == payload
