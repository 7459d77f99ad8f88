"""The pool hands out a sound connection without a round trip, and never one the server
ended (lib.postgresql)."""

import psycopg
import pytest
from django.conf import settings
from django.db import connection

from lib.postgresql.base import looks_sound
from tests import servers

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql" or not settings.DB_POOL_MAX_SIZE,
                       reason="the pool is PostgreSQL's"),
]


def _admin():
    return psycopg.connect(servers.database_url(settings.DATABASES["default"]),
                           autocommit=True)


def _taken() -> int:
    """A connection from the pool, as a request takes one: its server pid."""
    connection.close()  # back to the pool
    connection.ensure_connection()
    return connection.connection.info.backend_pid


def _mark() -> None:
    with connection.cursor() as cursor:
        cursor.execute("SELECT 'marked'")


def test_a_sound_pooled_connection_is_handed_out_without_a_query():
    marked, again = set(), []
    with _admin() as admin:
        for _round in range(8):
            pid = _taken()
            if pid in marked:
                again.append(admin.execute("SELECT query FROM pg_stat_activity WHERE pid = %s",
                                           [pid]).fetchone()[0])
            _mark()
            marked.add(pid)
    assert again, "the pool never handed a connection out twice"
    # Django's own check would have sent an empty query just before
    assert set(again) == {"SELECT 'marked'"}


def test_a_connection_the_server_ended_is_not_handed_out():
    pids = {_taken() for _ in range(4)}
    connection.close()
    with _admin() as admin:
        ended = admin.execute(
            "SELECT count(pg_terminate_backend(pid, 5000)) FROM pg_stat_activity "
            "WHERE pid = ANY(%s)", [list(pids)]).fetchone()[0]
    assert ended == len(pids)
    for _ in range(len(pids) + 1):
        assert _taken() not in pids
        _mark()  # and it answers


def test_a_connection_looks_sound_until_the_server_ends_it():
    with _admin() as admin, _admin() as other:
        assert looks_sound(other)
        admin.execute("SELECT pg_terminate_backend(%s, 5000)", [other.info.backend_pid])
        assert not looks_sound(other)


def test_the_pool_benchmark_says_both_checks_cost_per_round(capsys):
    from bench import poolbench

    poolbench.main(["--rounds", "100"])
    lines = capsys.readouterr().out.splitlines()
    assert [line.split(":")[0].strip() for line in lines] == ["django's check", "lib.postgresql"]
    assert all("ms of CPU here" in line and "(100 rounds)" in line for line in lines)


def test_the_pool_benchmark_refuses_too_few_rounds():
    from bench import poolbench

    with pytest.raises(SystemExit):
        poolbench.main(["--rounds", "5"])
