"""timestamptz columns of lib.rows' statements read by psycopg's compiled loader.

Django reads every timestamptz through a Python subclass of psycopg's Python loader (it
sets the connection's zone on each value), which psycopg cannot swap for its compiled
one: a move's locked read parses some twenty of them in Python, about 1.5% of a web
process's CPU at 1,000 tables (py-spy). Where the session's zone is UTC, as Django sets it
for a database without a TIME_ZONE of its own, psycopg's own loader gives the very values
Django's does (aware, tzinfo `datetime.timezone.utc`), so lib.rows' cursors register it;
anywhere else they keep Django's. Only psycopg's public adapters API is used.
"""

import datetime

import psycopg
from psycopg.pq import Format

_OID = psycopg.postgres.types["timestamptz"].oid
# the loader psycopg itself registers: its compiled one where psycopg-binary (or -c) is in
LOADER = psycopg.adapters.get_loader(_OID, Format.TEXT)
COMPILED = not LOADER.__module__.startswith("psycopg.")


def use_compiled_loader(cursor: psycopg.Cursor, db) -> bool:
    """Register psycopg's compiled timestamptz loader on `cursor`, a psycopg cursor of
    Django's connection `db`, when it reads what Django's would; whether it did."""
    if not COMPILED or db.timezone is not datetime.UTC:
        return False
    if cursor.connection.pgconn.parameter_status(b"TimeZone") != b"UTC":
        return False
    cursor.adapters.register_loader(_OID, LOADER)
    return True
