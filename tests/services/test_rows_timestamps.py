"""lib.rows reads timestamptz with psycopg's compiled loader, and reads what Django does."""

import datetime

import pytest
from django.db import connection, transaction

from lib import rows
from lib.postgresql import timestamps

pytestmark = pytest.mark.django_db

POSTGRES = pytest.mark.skipif(connection.vendor != "postgresql",
                              reason="PostgreSQL's timestamptz")

# microseconds, the epoch, the far past and future, an offset that is not UTC
TEXTS = ["2026-11-29 08:02:33.460018+00", "1970-01-01 00:00:00+00", "0001-01-01 00:00:00+00",
         "9999-12-31 23:59:59.999999+00", "2026-01-02 03:04:05.123456+05:30"]


def _sql(texts):
    return "SELECT " + ", ".join(f"%s::timestamptz AS t{i}" for i in range(len(texts)))


def _orm_read(texts=TEXTS):
    with connection.cursor() as cursor:  # Django's own cursor and loader
        cursor.execute(_sql(texts), texts)
        return cursor.fetchone()


@POSTGRES
def test_timestamps_read_by_the_move_path_are_the_ones_django_reads():
    ours = rows.select(_sql(TEXTS), TEXTS)[0]
    theirs = _orm_read()
    assert ours == theirs
    assert [v.tzinfo for v in ours] == [datetime.UTC] * len(TEXTS)
    assert ours[4] == datetime.datetime(2026, 1, 1, 21, 34, 5, 123456,
                                        tzinfo=datetime.UTC)


@POSTGRES
def test_the_move_paths_cursor_reads_timestamps_with_psycopgs_compiled_loader():
    if not timestamps.COMPILED:
        pytest.skip("psycopg without its compiled part: nothing to gain")
    db = rows._db()
    with rows._cursor(db) as cursor:
        raw = cursor.cursor
        loader = raw.adapters.get_loader(timestamps._OID, timestamps.Format.TEXT)
        assert loader is timestamps.LOADER
    # Django's own cursors keep Django's loader (it carries the zone Django checks)
    assert connection.connection.adapters.get_loader(
        timestamps._OID, timestamps.Format.TEXT).timezone is datetime.UTC


@POSTGRES
def test_a_session_in_another_zone_keeps_djangos_loader_and_its_values():
    with transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("SET LOCAL TimeZone = 'Asia/Kolkata'")
        db = rows._db()
        with rows._cursor(db) as cursor:
            raw = getattr(cursor, "cursor", None)
            if raw is not None and hasattr(raw, "adapters"):
                assert not timestamps.use_compiled_loader(raw, db)
        texts = [TEXTS[0], TEXTS[4]]  # the far ends overflow in another zone
        ours = rows.select(_sql(texts), texts)[0]
        theirs = _orm_read(texts)
    assert ours == theirs
