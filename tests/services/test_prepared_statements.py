"""lib.rows prepares its statements once a PostgreSQL connection, then sends them by name."""

import pytest
from django.db import DatabaseError, connection, transaction
from django.test.utils import CaptureQueriesContext

from lib import rows

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PREPARE is PostgreSQL's"),
]


def _sent(sql: str, params: list) -> tuple[list, list[str]]:
    with CaptureQueriesContext(connection) as captured:
        found = rows.select(sql, params)
    return found, [q["sql"] for q in captured.captured_queries]


def test_a_statement_is_prepared_on_first_use_then_sent_by_name_with_the_same_rows():
    sql = "SELECT %s::int + 1, '100%%' AS pct, %s::text"
    name = rows._prepared_form(sql)[0]
    first, sent_first = _sent(sql, [41, "a'b"])
    again, sent_again = _sent(sql, [1, "c"])

    assert first == [(42, "100%", "a'b")] and again == [(2, "100%", "c")]
    assert len(sent_first) == 1 and sent_first[0].startswith(f"PREPARE {name} AS SELECT $1")
    assert sent_again == [f"EXECUTE {name}(1, 'c')"]
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements WHERE name = %s", [name])
        assert cursor.fetchone()[0] == 1


def test_with_prepared_statements_off_the_text_is_sent(settings):
    settings.DB_PREPARED_STATEMENTS = False
    found, sent = _sent("SELECT %s::int * 2", [21])
    assert found == [(42,)] and sent == ["SELECT 21::int * 2"]


def test_a_statement_whose_first_use_failed_is_sent_as_text_from_then_on():
    sql = "SELECT 10 / %s::int"
    with pytest.raises(DatabaseError), transaction.atomic():
        rows.select(sql, [0])  # its PREPARE may or may not have run before the error

    found, sent = _sent(sql, [5])
    assert found == [(2,)] and sent == ["SELECT 10 / 5::int"]


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


@pytest.mark.django_db(transaction=True)
def test_statements_the_server_dropped_are_prepared_again_after_one_failure():
    sql = "SELECT %s::int - 1"
    assert rows.select(sql, [2]) == [(1,)]
    with connection.cursor() as cursor:
        cursor.execute("DEALLOCATE ALL")  # as a pooler resetting the session would
    with pytest.raises(DatabaseError):
        rows.select(sql, [3])

    found, sent = _sent(sql, [5])
    assert found == [(4,)] and sent[0].startswith("DEALLOCATE ALL; PREPARE")
    assert _sent(sql, [6]) == ([(5,)], [f"EXECUTE {rows._prepared_form(sql)[0]}(6)"])
