"""lib.rows binds its parameters on the server and has psycopg prepare each statement once a
PostgreSQL connection, then run it by name."""

import pytest
from django.db import DatabaseError, connection, transaction

from lib import rows

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PREPARE is PostgreSQL's"),
]


def _prepared(fragment: str) -> list[tuple[int, int]]:
    """(generic plans, custom plans) of each statement prepared over the protocol on this
    connection whose text holds the fragment."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT generic_plans, custom_plans FROM pg_prepared_statements"
                       " WHERE NOT from_sql AND strpos(statement, %s) > 0", [fragment])
        return cursor.fetchall()


def _runs(fragment: str) -> int:
    return sum(generic + custom for generic, custom in _prepared(fragment))


def test_a_statement_is_prepared_on_first_use_then_run_by_name_with_the_same_rows():
    sql = "SELECT %s::int + 1, '100%%' AS pct, %s::text"
    assert rows.select(sql, [41, "a'b"]) == [(42, "100%", "a'b")]
    assert len(_prepared("$1::int + 1, '100%' AS pct, $2::text")) == 1

    assert rows.select(sql, [1, "c"]) == [(2, "100%", "c")]
    assert len(_prepared("$1::int + 1")) == 1 and _runs("$1::int + 1") == 2


def test_with_prepared_statements_off_nothing_is_prepared(settings):
    settings.DB_PREPARED_STATEMENTS = False
    assert rows.select("SELECT %s::int * 2", [21]) == [(42,)]
    assert rows.select("SELECT %s::int * 2", [4]) == [(8,)]
    assert _prepared("$1::int * 2") == []


def test_a_statement_whose_first_use_failed_runs_and_is_prepared_on_the_next():
    sql = "SELECT 10 / %s::int"
    with pytest.raises(DatabaseError), transaction.atomic():
        rows.select(sql, [0])

    assert rows.select(sql, [5]) == [(2,)]
    assert rows.select(sql, [2]) == [(5,)]
    # (the server may keep the first one, parsed before it failed, unused)
    assert max(g + c for g, c in _prepared("10 / $1::int")) == 2


@pytest.mark.django_db(transaction=True)
def test_after_the_server_ends_a_connection_the_statement_is_prepared_on_the_next():
    import psycopg

    sql = "SELECT %s::int * 3"
    assert rows.select(sql, [2]) == [(6,)]
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        (pid,) = cursor.fetchone()
    dsn = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in dsn.items() if k != "cursor_factory"},
                         autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s, 5000)", [pid])  # ended, not signalled
    with pytest.raises(DatabaseError):
        rows.select(sql, [3])
    connection.close()  # as the end of a request does with a broken connection

    assert rows.select(sql, [4]) == [(12,)]
    assert len(_prepared("$1::int * 3")) == 1


@pytest.mark.django_db(transaction=True)
def test_statements_the_server_dropped_are_prepared_again_after_one_failure():
    sql = "SELECT %s::int - 1"
    assert rows.select(sql, [2]) == [(1,)]
    # as a pooler resetting the session would: behind psycopg's back, on the wire
    connection.connection.pgconn.exec_(b"DEALLOCATE ALL")
    with pytest.raises(DatabaseError):
        rows.select(sql, [3])

    assert rows.select(sql, [5]) == [(4,)]
    assert rows.select(sql, [6]) == [(5,)]
    assert len(_prepared("$1::int - 1")) == 1 and _runs("$1::int - 1") == 2


def test_a_statement_runs_as_text_where_django_would_set_another_time_zone_on_the_cursor(
        monkeypatch):
    monkeypatch.setattr(rows, "_loader_timezone", lambda raw: "elsewhere")
    assert rows.select("SELECT %s::int + 7", [1]) == [(8,)]
    assert _prepared("$1::int + 7") == []


def test_the_query_log_shows_each_statement_as_text_with_its_values():
    from django.test.utils import CaptureQueriesContext

    sql = "SELECT %s::int + 11, %s::text"
    with CaptureQueriesContext(connection) as captured:
        rows.select(sql, [1, "it's"])
        rows.select(sql, [2, "b"])  # run by name: psycopg keeps no text of it
    assert [q["sql"] for q in captured.captured_queries] == [
        "SELECT 1::int + 11, 'it''s'::text", "SELECT 2::int + 11, 'b'::text"]
