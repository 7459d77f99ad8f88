"""What a request's database connection costs before its first query: taken from the
pool with Django's own check (an empty query each time) against lib.postgresql's (the
server asked only when the socket says something happened).

    python -m bench.poolbench [--rounds 5000]

Each round is what a request does with the database: the connection taken from the pool,
one `SELECT 1`, the connection given back. Prints, for each way, the CPU a round of this
process and of the PostgreSQL server processes that served it (read from /proc: run it on
the database's machine). Uses DATABASE_URL.
"""

import argparse
import os
import time

from bench.procs import cpu_seconds


def _setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")
    import django

    django.setup()


def _ways(config: dict) -> dict:
    """Two Django connection settings to the same database, differing in the check."""
    pooled = {**config, "OPTIONS": {**config.get("OPTIONS", {}),
                                    "pool": {"min_size": 2, "max_size": 2, "timeout": 20}}}
    return {
        "django's check": {**pooled, "ENGINE": "django.db.backends.postgresql",
                           "CONN_HEALTH_CHECKS": True},
        "lib.postgresql": {**pooled, "ENGINE": "lib.postgresql",
                           "CONN_HEALTH_CHECKS": False},
    }


def _server_cpu(pids: set[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


def measure(connection, rounds: int) -> tuple[float, float]:
    """(ms of this process's CPU, ms of the server's) a round."""
    pids = set()
    for _ in range(4):  # the pool opened and warm
        connection.ensure_connection()
        pids.add(connection.connection.info.backend_pid)
        connection.close()
    before, server_before = time.process_time(), _server_cpu(pids)
    for _ in range(rounds):
        connection.ensure_connection()
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
        connection.close()
    cpu, server = time.process_time() - before, _server_cpu(pids) - server_before
    return cpu * 1000 / rounds, server * 1000 / rounds


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5000)
    args = parser.parse_args(argv)
    if args.rounds < 100:
        parser.error("--rounds: at least 100")
    _setup()
    from django.db import connections
    from django.db.utils import ConnectionHandler

    config = connections["default"].settings_dict
    if connections["default"].vendor != "postgresql":
        parser.error("DATABASE_URL must name a PostgreSQL database")
    ways = _ways(config)
    handler = ConnectionHandler({"default": config, **ways})
    for name in ways:
        here, server = measure(handler[name], args.rounds)
        handler[name].close_pool()
        print(f"{name:>15}: {here:.3f} ms of CPU here and {server:.3f} ms of PostgreSQL's "
              f"a round ({args.rounds} rounds)")


if __name__ == "__main__":
    main()
