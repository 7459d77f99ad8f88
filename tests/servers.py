"""Helpers for tests that start real server processes (daphne, redis-server)."""

import shutil
import socket
import subprocess
import time
from contextlib import contextmanager
from pathlib import Path

import pytest


def free_port() -> int:
    """A TCP port nobody listens on now (the OS's pick)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_port(proc: subprocess.Popen, port: int, log: Path, seconds: float = 60) -> None:
    """Return once `port` accepts connections; fail with the process's log if it died or
    never listened (a guard against a hang, not a bound on speed)."""
    deadline = time.monotonic() + seconds
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            return
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"daphne did not start on :{port}:\n" + log.read_text()[-4000:])
            time.sleep(0.2)


@contextmanager
def redis_server(port: int, folder: Path):
    """A redis-server of the test's own on `port` (never the shared one: tests flush and
    restart it), keeping nothing on disk; yields a function that restarts it empty, with
    `.stop()` and `.start()` for an outage of the test's own length."""
    server = shutil.which("redis-server")
    if server is None:
        pytest.skip("needs redis-server")
    procs = []

    def start():
        procs.append(subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(folder)], stdout=subprocess.DEVNULL))
        wait_for_port(procs[-1], port, folder / "redis-none.log")

    def stop():
        if procs[-1].poll() is None:
            procs[-1].terminate()
            procs[-1].wait(timeout=30)

    def restart():
        stop()
        start()

    restart.stop, restart.start = stop, start
    start()
    try:
        yield restart
    finally:
        stop()
