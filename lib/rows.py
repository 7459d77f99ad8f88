"""Hand-written SQL for the statements every move runs, with the ORM's own conversions.

Django compiles each ORM query anew: about 0.5 ms of CPU, against 0.1 ms for the same
statement sent as text (measured with bench.movebench). A move runs six statements, so
the move path (games.services._move, clocks.clocks) reads and writes its rows
here. The SQL is built once per model and database from the models' own field lists, and
values pass through the same field conversions the ORM applies both ways, so the
instances are the ORM's instances; no signals are sent (nothing listens to these models).

On PostgreSQL the statements bind their parameters on the server (psycopg's compiled
dumpers, not values written into the text in Python), and each is prepared once a
connection (psycopg's prepared statements): the server plans it once instead of at every
move (the move's locked read costs PostgreSQL about half the CPU prepared). Prepared
statements last as long as the connection and survive a rollback; when the server has lost
them (DISCARD ALL) or a migration changed a result's shape, the statement that finds out
fails and the next one prepares them again. DB_PREPARED_STATEMENTS=0 turns them off (a
pooler that resets sessions between transactions, such as PgBouncer in transaction mode).
Writes held for one round trip go as one statement (data-modifying WITH parts). A move's
BEGIN goes with its read and its COMMIT with its write (lib.round_trips).
"""

import json
import re
import weakref
from contextlib import contextmanager
from contextvars import ContextVar
from functools import cache

import orjson
import psycopg
from django.conf import settings
from django.db import DEFAULT_DB_ALIAS, connection, connections
from django.db.backends.utils import CursorDebugWrapper, CursorWrapper
from django.db.models import JSONField

from lib import round_trips
from lib.postgresql.timestamps import use_compiled_loader

# UPDATEs held back to travel with the next statement (one_round_trip): [(sql, params)]
_held: ContextVar[list | None] = ContextVar("rows_held_updates", default=None)


def _db():
    """The connection itself: `connection` is a proxy that looks it up again on every
    attribute (a context-local read, ~30 a move)."""
    return connections[DEFAULT_DB_ALIAS]


@cache
def vendor() -> str:
    """The default database's vendor: fixed by the settings for the process's life (kept,
    as looking the connection up costs a context-local read)."""
    return _db().vendor


def quote(name: str) -> str:
    return connection.ops.quote_name(name)


class Columns:
    """A model's columns in a SELECT under a table alias, and the loader of its instances
    from a row of such a SELECT."""

    def __init__(self, model, alias: str, defer: tuple[str, ...] = ()):
        """`defer`: attnames not read (the ORM reads one if it is ever touched)."""
        self.model, self.alias = model, alias
        self.fields = [f for f in model._meta.concrete_fields if f.attname not in defer]
        self.names = [f.attname for f in self.fields]
        self.cols = [f.get_col(alias) for f in self.fields]
        self.pk_at = self.names.index(model._meta.pk.attname)
        self.sql = ", ".join(f"{alias}.{quote(f.column)}" for f in self.fields)
        self.width = len(self.fields)
        self._by_vendor: dict[str, list] = {}

    def load(self, row, start: int = 0):
        """The instance in row[start:start + width]; None for a LEFT JOIN's empty side."""
        values = list(row[start:start + self.width])
        if values[self.pk_at] is None:
            return None
        found = self._converters(vendor())
        if found:  # the connection only for the conversions (most columns have none)
            db = _db()
            for i, convs in found:
                for convert in convs:
                    values[i] = convert(values[i], self.cols[i], db)
        return self.model.from_db(DEFAULT_DB_ALIAS, self.names, values)

    def _converters(self, vendor: str) -> list[tuple[int, list]]:
        """(column number, converters) for the columns read that have any."""
        found = self._by_vendor.get(vendor)
        if found is None:
            found = self._by_vendor[vendor] = [
                (i, convs) for i, field in enumerate(self.fields)
                if (convs := _field_converters(self.model, field.attname, vendor)[1])]
        return found


@cache
def _field_converters(model, attname: str, vendor: str):
    """A field's column and its converters, as SQLCompiler.apply_converters runs them."""
    field = next(f for f in model._meta.concrete_fields if f.attname == attname)
    col = field.get_col(model._meta.db_table)
    convs = connection.ops.get_db_converters(col) + col.get_db_converters(connection)
    return col, [_json_decoded(field) if _plain_json(field, c) else c for c in convs]


_TIMESTAMPTZ_OID = psycopg.postgres.types["timestamptz"].oid
_LONG_DIGITS = re.compile(r"[0-9]{19}")
_UNREAD = object()


def _orjson_read(text: str):
    """The value orjson reads in the text, or _UNREAD where it might read it otherwise
    than the standard library's json (see _json_decoded)."""
    if _LONG_DIGITS.search(text):
        return _UNREAD
    try:
        return orjson.loads(text)
    except orjson.JSONDecodeError:
        return _UNREAD


def _plain_json(field, convert) -> bool:
    """A JSONField decoded by Django's own from_db_value with the standard decoder."""
    return (isinstance(field, JSONField) and field.decoder is None
            and type(field).from_db_value is JSONField.from_db_value
            and convert == field.from_db_value)


def _json_decoded(field):
    """The field's from_db_value, with orjson for the text it reads (a move reads a dozen
    JSON columns; the standard library's json took 2% of the move's CPU). Text orjson
    would read otherwise (it refuses some; integers beyond 64 bits it makes floats: any
    run of 19 digits) goes to Django's own, so the values are the same."""
    django_decoded = field.from_db_value

    def convert(value, expression, connection):
        if isinstance(value, str) and (found := _orjson_read(value)) is not _UNREAD:
            return found
        return django_decoded(value, expression, connection)

    return convert


def json_loads(text: str):
    """json.loads, by orjson where it reads the text the same way (see _json_decoded)."""
    found = _orjson_read(text)
    return json.loads(text) if found is _UNREAD else found


def column(model, attname: str, sql: str, params) -> list:
    """The first column of the rows `sql` selects, holding the model's field `attname`,
    converted as the ORM converts it."""
    db = _db()
    col, convs = _field_converters(model, attname, db.vendor)
    out = []
    for (value, *_) in select(sql, params):
        for convert in convs:
            value = convert(value, col, db)
        out.append(value)
    return out


def select(sql: str, params, *, opens: bool = False) -> list[tuple]:
    """The rows `sql` selects. `opens`: the caller's transaction.atomic() is the outermost
    and this is its first statement: on PostgreSQL its BEGIN goes in the same round trip
    (lib.round_trips)."""
    flush()
    db = _db()
    with _cursor(db) as cursor:
        _execute(db, cursor, [(sql, params)], opens=opens)
        return cursor.fetchall()


# psycopg connections whose prepared statements the server lost or outdated: psycopg is
# told to forget them before the next statement (closed connections drop out)
_outdated: weakref.WeakSet = weakref.WeakSet()
_WRITES = re.compile(r'\b(?:UPDATE|INSERT INTO) ("[^"]+"|\w+)')


def _cursor(db):
    """The cursor this module's statements go through. On PostgreSQL with psycopg 3 it is
    psycopg's Cursor, which binds the parameters on the server: psycopg's compiled dumpers
    instead of Django's default ClientCursor writing each value into the text in Python
    (5% of a web process's CPU at 1,000 tables), and the statement is prepared once a
    connection when settings.DB_PREPARED_STATEMENTS allows (psycopg's own prepared
    statements: Parse once, then Bind and Execute by name). It is wrapped as Django wraps its own
    cursors (the query log, execute wrappers, database errors as Django's). Elsewhere, or
    where the connection's time zone differs from Django's (Django would set one on the
    cursor), Django's own cursor."""
    if not _binds_on_server(db):
        return db.cursor()
    db.close_if_health_check_failed()
    db.ensure_connection()
    raw = db.connection
    if _loader_timezone(raw) != db.timezone:
        return db.cursor()
    db.validate_thread_sharing()
    cursor = psycopg.Cursor(raw)
    use_compiled_loader(cursor, db)
    return _LoggedCursor(cursor, db) if db.queries_logged else db.make_cursor(cursor)


class _LoggedCursor(CursorDebugWrapper):
    """Django's debug cursor (DEBUG, tests counting queries), logging each statement as
    text with its values, as Django does for a server-bound cursor: psycopg keeps no text
    of a prepared statement's run, where Django's debug cursor would read it."""

    def execute(self, sql, params=None):
        # without parameters the text is sent as it is (a % in it is no mark)
        text = sql if params is None else self.db.ops.compose_sql(sql, params)
        with self.debug_sql(text):
            return CursorWrapper.execute(self, sql, params)


def _loader_timezone(raw):
    """The time zone of the connection's timestamptz loader (Django sets it at connect)."""
    return raw.adapters.get_loader(_TIMESTAMPTZ_OID, psycopg.pq.Format.TEXT).timezone


@cache
def _binds_on_server_for(vendor: str, module: str) -> bool:
    return vendor == "postgresql" and module == "psycopg"


def _binds_on_server(db) -> bool:
    return _binds_on_server_for(db.vendor, db.Database.__name__)


def _execute(db, cursor, statements: list[tuple[str, list]], *, opens: bool = False,
             commits: bool = False) -> None:
    """Send the statements, as one where they fold into one (_fold), and leave the cursor
    on the last one's result. `opens`, `commits`: BEGIN before them, COMMIT after them,
    in the same round trip where the connection allows (lib.round_trips)."""
    statements = _fold(db, statements)
    if not _binds_on_server(db) or isinstance(cursor.cursor, psycopg.ClientCursor):
        _send_text(db, cursor, statements)
        return
    raw = db.connection
    # psycopg prepares a server-bound statement once it has run `threshold` times (None:
    # never); Django sets none, and its own ClientCursor never prepares
    threshold = 0 if settings.DB_PREPARED_STATEMENTS else None
    if raw.prepare_threshold != threshold:
        raw.prepare_threshold = threshold
    if raw in _outdated:  # psycopg forgets its prepared statements on seeing this
        _outdated.discard(raw)
        cursor.execute("DEALLOCATE ALL")
        round_trips.forget(raw)
    try:
        if opens and round_trips.may_open(db, raw, statements):
            round_trips.open_with(raw, cursor, *statements[0])
        elif commits and round_trips.opened_here(db, raw):
            round_trips.commit_with(raw, cursor, statements)
        else:
            for sql, params in statements:
                cursor.execute(sql, params)
    except Exception as exc:
        if _stale(exc):
            _outdated.add(raw)
        raise


def _send_text(db, cursor, statements: list[tuple[str, list]]) -> None:
    if len(statements) == 1:
        cursor.execute(*statements[0])
    elif _batches(db):  # client-side binding: one text, the results in turn
        cursor.execute(*_joined(statements))
        for _ in statements[1:]:
            cursor.nextset()
    else:
        for sql, params in statements:
            cursor.execute(sql, params)


def _stale(exc: Exception) -> bool:
    """A prepared statement the server no longer has (DEALLOCATE, DISCARD ALL by a
    pooler), or whose result changed shape since it was prepared (a migration)."""
    cause = exc.__cause__ or exc
    state = getattr(cause, "sqlstate", None)
    return state == "26000" or (state == "0A000" and "cached plan" in str(cause))


def _fold(db, statements: list[tuple[str, list]]) -> list[tuple[str, list]]:
    """Writes held for one round trip, as one statement on PostgreSQL: each earlier one a
    data-modifying WITH of the last (each runs once, to completion). They must write to
    different tables (the parts of one statement share its snapshot, so a row written by
    two parts would take one write): where two do, they go one by one."""
    if len(statements) == 1 or db.vendor != "postgresql":
        return statements
    seen: set[str] = set()
    for sql, _params in statements:
        tables = _written(sql)
        if seen & tables:
            return statements
        seen |= tables
    return [(_folded_sql(tuple(sql for sql, _ in statements)),
             [p for _, ps in statements for p in ps])]


@cache
def _written(sql: str) -> frozenset[str]:
    return frozenset(_WRITES.findall(sql))


@cache
def _folded_sql(sqls: tuple[str, ...]) -> str:
    *held, last = sqls
    parts = ", ".join(f"held_{i} AS ({sql})" for i, sql in enumerate(held))
    if last.startswith("WITH "):
        return f"WITH {parts}, {last[len('WITH '):]}"
    return f"WITH {parts} {last}"


def _batches(db) -> bool:
    """Whether several statements may go in one execute's text: PostgreSQL binding
    parameters on the client (psycopg's ClientCursor, Django's default)."""
    return db.vendor == "postgresql" and not db.settings_dict.get("OPTIONS", {}).get(
        "server_side_binding")


@contextmanager
def one_round_trip():
    """Within it, update() and update_many() wait and go out with the next statement of
    this module (or at the end), in one round trip to the database where it allows
    several statements at once; any read first sends what waits, so it sees them."""
    token = _held.set([])
    try:
        yield
        flush()
    finally:
        _held.reset(token)


def flush() -> None:
    """Send the UPDATEs one_round_trip holds, if any."""
    statements = _take_held()
    if not statements:
        return
    db = _db()
    with _cursor(db) as cursor:
        _execute(db, cursor, statements)


def _take_held() -> list[tuple[str, list]]:
    held = _held.get()
    if not held:
        return []
    taken = list(held)
    held.clear()
    return taken


def _joined(statements: list[tuple[str, list]]) -> tuple[str, list]:
    """Several statements as one execute's text and parameters (client-side binding)."""
    return "; ".join(sql for sql, _ in statements), [p for _, ps in statements for p in ps]


def _write(sql: str, params: list) -> None:
    held = _held.get()
    if held is not None:
        held.append((sql, params))
        return
    db = _db()
    with _cursor(db) as cursor:
        _execute(db, cursor, [(sql, params)])


def lock_clause(alias: str) -> str:
    """Row lock of the named table until the transaction ends, where the database has
    row locks (SQLite writes one transaction at a time anyway)."""
    features = _db().features
    if not features.has_select_for_update:
        return ""
    if features.has_select_for_update_of:
        return f" FOR UPDATE OF {alias}"
    return " FOR UPDATE"


def _prep(field, value, db):
    return field.get_db_prep_save(value, db)


@cache
def _update_sql(model, attnames: tuple[str, ...], vendor: str) -> str:
    meta = model._meta
    sets = ", ".join(f"{quote(meta.get_field(a).column)} = %s" for a in attnames)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {quote(meta.pk.column)} = %s"


def update(instance, attnames) -> None:
    """UPDATE the instance's row: the named fields, as save(update_fields=...)."""
    attnames = tuple(attnames)
    meta = instance._meta
    db = _db()
    params = [_prep(meta.get_field(a), getattr(instance, meta.get_field(a).attname), db)
              for a in attnames]
    params.append(instance.pk)
    _write(_update_sql(type(instance), attnames, db.vendor), params)


@cache
def _update_many_sql(model, attnames: tuple[str, ...], count: int, vendor: str) -> str:
    meta = model._meta
    pk = quote(meta.pk.column)
    whens = " ".join(["WHEN %s THEN %s"] * count)
    sets = ", ".join(
        f"{quote(meta.get_field(a).column)} = CASE {pk} {whens} "
        f"ELSE {quote(meta.get_field(a).column)} END" for a in attnames)
    marks = ", ".join(["%s"] * count)
    return f"UPDATE {quote(meta.db_table)} SET {sets} WHERE {pk} IN ({marks})"


def update_many(instances: list, attnames) -> None:
    """UPDATE several rows of one model in one statement: the named fields of each."""
    if len(instances) == 1:
        update(instances[0], attnames)
        return
    attnames = tuple(attnames)
    meta = instances[0]._meta
    db = _db()
    params = []
    for a in attnames:
        field = meta.get_field(a)
        for instance in instances:
            params += [instance.pk, _prep(field, getattr(instance, field.attname), db)]
    params += [instance.pk for instance in instances]
    _write(_update_many_sql(type(instances[0]), attnames, len(instances), db.vendor), params)


@cache
def _insert_sql(model, vendor: str) -> tuple[str, tuple]:
    meta = model._meta
    fields = tuple(f for f in meta.concrete_fields if not f.primary_key)
    columns = ", ".join(quote(f.column) for f in fields)
    marks = ", ".join(["%s"] * len(fields))
    sql = f"INSERT INTO {quote(meta.db_table)} ({columns}) VALUES ({marks})"
    if connection.features.can_return_columns_from_insert:
        sql += f" RETURNING {quote(meta.pk.column)}"
    return sql, fields


def insert(instance) -> None:
    """INSERT the new instance (auto_now_add and defaults as save() fills them) and set
    its primary key."""
    flush()
    db = _db()
    sql, fields = _insert_sql(type(instance), db.vendor)
    params = [_prep(f, f.pre_save(instance, True), db) for f in fields]
    with _cursor(db) as cursor:
        _execute(db, cursor, [(sql, params)])
        if db.features.can_return_columns_from_insert:
            pk = cursor.fetchone()[0]
        else:
            pk = cursor.lastrowid
    instance.pk = pk
    instance._state.adding = False
    instance._state.db = db.alias


@cache
def _insert_and_update_sql(new_model, model, attnames: tuple[str, ...], vendor: str) -> str:
    insert_sql = _insert_sql(new_model, vendor)[0]
    return (f"WITH new_row AS ({insert_sql}) {_update_sql(model, attnames, vendor)}"
            " RETURNING (SELECT * FROM new_row)")


def insert_and_update(new, instance, attnames, *, commits: bool = False) -> None:
    """insert(new), then update(instance, attnames): one statement, one round trip, where
    the database allows an INSERT inside WITH (PostgreSQL); two statements elsewhere.
    The UPDATEs one_round_trip holds go out before it, in the same round trip.
    `commits`: the transaction's last statement, its atomic block the outermost and begun
    by select(opens=True): COMMIT goes in the same round trip (lib.round_trips); nothing
    may read or write after it in the block."""
    db = _db()
    if db.vendor != "postgresql":
        insert(new)
        update(instance, attnames)
        return
    attnames = tuple(attnames)
    fields = _insert_sql(type(new), db.vendor)[1]
    meta = instance._meta
    params = [_prep(f, f.pre_save(new, True), db) for f in fields]
    params += [_prep(meta.get_field(a), getattr(instance, meta.get_field(a).attname), db)
               for a in attnames]
    params.append(instance.pk)
    sql = _insert_and_update_sql(type(new), type(instance), attnames, db.vendor)
    with _cursor(db) as cursor:
        _execute(db, cursor, [*_take_held(), (sql, params)], commits=commits)
        (pk,) = cursor.fetchone()  # the updated row exists: the caller holds its lock
    new.pk = pk
    new._state.adding = False
    new._state.db = db.alias
