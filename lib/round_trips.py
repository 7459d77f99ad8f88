"""BEGIN and COMMIT in the round trips of a transaction's first and last statements
(PostgreSQL, psycopg 3): the move path's transaction is two round trips, not four.

psycopg sends BEGIN alone before a transaction's first statement, and COMMIT alone after
its last: four round trips for a move (BEGIN, the locked read, the write, COMMIT). Under
load each costs its thread about a millisecond, most of it waiting for the GIL back.
Here the first statement goes as one simple query, `BEGIN; EXECUTE name(...)`, and the
last as `EXECUTE name(...); COMMIT`, of statements prepared once a connection by SQL's
PREPARE, their values written into the text by psycopg's client-side binding. (psycopg's
pipeline mode does it in as many round trips, but each statement in it costs a poll of
the socket, with the GIL let go, and a send of its own: more CPU than it saves.)

For that, psycopg's connection is put in autocommit (it then adds no BEGIN) at the start
of Django's outermost atomic block; Django's own flags are untouched: at the block's end
its commit() finds the transaction committed (psycopg's commit() does nothing on an idle
connection) or sends COMMIT, its rollback() sends ROLLBACK, and it sets autocommit on as
always. docs/upgrades.md lists what this leans on.
"""

import itertools
import re
import weakref

import psycopg
from django.conf import settings
from django.db import DatabaseError

_IDLE = psycopg.pq.TransactionStatus.IDLE
_INTRANS = psycopg.pq.TransactionStatus.INTRANS
_MARK = re.compile(r"%[s%]")

# psycopg connection -> {statement text: name it is prepared under by SQL's PREPARE}
_prepared: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_names = itertools.count(1)


def may_open(db, raw, statements) -> bool:
    """Whether BEGIN can go with these statements: one, of integer parameters and no
    literal %, first of Django's atomic block (its autocommit off, psycopg's connection
    idle)."""
    if len(statements) != 1:
        return False
    sql, params = statements[0]
    return (db.in_atomic_block and not db.get_autocommit() and not raw.autocommit
            and raw.info.transaction_status == _IDLE and "%%" not in sql
            and all(type(p) is int for p in params))


def opened_here(db, raw) -> bool:
    """Whether the transaction under way was begun by open_with: psycopg's connection in
    autocommit inside Django's atomic block is only ever set so there."""
    return (db.in_atomic_block and not db.get_autocommit() and raw.autocommit
            and raw.info.transaction_status == _INTRANS)


def open_with(raw, cursor, sql: str, params: list[int]) -> None:
    """BEGIN and the statement, one simple query; the cursor left on the statement's
    result. Prepared by SQL's PREPARE in the same query (before BEGIN: a rollback would
    take it along) the first time on a connection, under a name new to it. psycopg's
    rollback() deallocates every prepared statement of the connection (DEALLOCATE ALL),
    unseen from here: the statement the server no longer has is prepared again at once,
    in a transaction begun anew."""
    known = _prepared.setdefault(raw, {})
    raw.autocommit = True
    try:
        try:
            parts = _opening(known, sql, params)
            _send(raw, cursor, parts)
        except DatabaseError as exc:
            if len(parts) == 3 or getattr(exc.__cause__, "sqlstate", None) != "26000":
                raise
            known.clear()  # DEALLOCATE ALL: every statement of the connection is gone
            _send(raw, cursor, ["ROLLBACK"])  # the transaction the failed query began
            parts = _opening(known, sql, params)
            _send(raw, cursor, parts)
    except Exception:
        known.pop(sql, None)
        raise
    for _ in parts[1:]:
        cursor.nextset()


def _opening(known: dict, sql: str, params: list[int]) -> list[str]:
    """The opening query's statements: BEGIN, then the statement, run by name (its
    integers written in) after a PREPARE where the connection has none yet."""
    if not settings.DB_PREPARED_STATEMENTS:
        return ["BEGIN", _inlined(sql, params)]
    *prepare, run = _by_name(known, sql, f"({', '.join(map(str, params))})" if params else "")
    return [*prepare, "BEGIN", run]


def commit_with(raw, cursor, statements) -> None:
    """The statements then COMMIT, one simple query: each run by name (prepared in the
    query the first time on the connection), its values written into the text by psycopg's
    client-side binding (the dumpers of server-side binding, quoted). The cursor is left
    on the last statement's result."""
    known = _prepared.setdefault(raw, {})
    binder = psycopg.ClientCursor(raw)
    texts = []
    for sql, params in statements:
        if not settings.DB_PREPARED_STATEMENTS:
            texts.append(binder.mogrify(sql, params))
            continue
        *prepare, run = _by_name(known, sql, f"({', '.join(['%s'] * len(params))})"
                                 if params else "")
        texts += [*prepare, binder.mogrify(run, params)]
    texts.append("COMMIT")
    try:
        _send(raw, cursor, texts)
    except Exception:
        for sql, _params in statements:  # a PREPARE in a failed transaction is undone
            known.pop(sql, None)
        raise
    for _ in texts[:-2]:  # (COMMIT's result comes after the last statement's)
        cursor.nextset()


def _by_name(known: dict, sql: str, arguments: str) -> list[str]:
    """[PREPARE, where the connection has not the statement yet,] EXECUTE of it."""
    name = known.get(sql)
    if name is not None:
        return [f"EXECUTE {name}{arguments}"]
    name = known[sql] = f"blaze_rows_{next(_names)}"
    return [f"PREPARE {name} AS {_numbered(sql)}", f"EXECUTE {name}{arguments}"]


def _send(raw, cursor, texts: list[str]) -> None:
    """The texts as one simple query (psycopg would prepare it, statements and all)."""
    threshold = raw.prepare_threshold
    raw.prepare_threshold = None
    try:
        cursor.execute("; ".join(texts))
    finally:
        raw.prepare_threshold = threshold


def forget(raw) -> None:
    """The server dropped the connection's prepared statements (DEALLOCATE ALL)."""
    _prepared.pop(raw, None)


def _numbered(sql: str) -> str:
    """psycopg's %s marks as PostgreSQL's $1, $2..."""
    count = itertools.count(1)
    return _MARK.sub(lambda m: f"${next(count)}" if m.group() == "%s" else "%", sql)


def _inlined(sql: str, params: list[int]) -> str:
    values = iter(params)
    return _MARK.sub(lambda m: str(next(values)) if m.group() == "%s" else "%", sql)
