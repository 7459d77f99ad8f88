"""Helpers for tests that start real server processes (daphne or uvicorn, redis-server)."""

import json
import shutil
import socket
import subprocess
import sys
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from types import SimpleNamespace

import pytest

from lib.web_server import uvicorn_options

ROOT = Path(__file__).resolve().parents[1]


def redis_answers() -> bool:
    """Whether a Redis server listens on 127.0.0.1:6379 (the tests that need one skip
    without it)."""
    try:
        socket.create_connection(("127.0.0.1", 6379), timeout=1).close()
        return True
    except OSError:
        return False


def until_refused(url: str, secret: str, seconds: float = 30) -> None:
    """Return once the server at `url` answers 401 to the token (a liveness bound, not a
    timing: at once when the site is well)."""
    from urllib.error import HTTPError

    deadline = time.monotonic() + seconds
    while True:
        try:
            http_json("GET", f"{url}/api/v1/games", secret)
        except HTTPError as refused:
            assert refused.code == 401
            return
        assert time.monotonic() < deadline, f"{url} still takes a revoked token"
        time.sleep(0.05)


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
                pytest.fail(f"the server did not start on :{port}:\n" + log.read_text()[-4000:])
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


def database_url(settings_dict) -> str | None:
    """The test database as a URL for another process; None when it cannot be shared."""
    if "postgresql" not in settings_dict["ENGINE"]:
        return None  # pytest-django's SQLite test database lives in this process's memory
    user, password = settings_dict.get("USER") or "", settings_dict.get("PASSWORD") or ""
    auth = user + (f":{password}" if password else "") + ("@" if user else "")
    host, port = settings_dict.get("HOST") or "127.0.0.1", settings_dict.get("PORT") or 5432
    return f"postgres://{auth}{host}:{port}/{settings_dict['NAME']}"


# The two web servers the site is run with (docs/deployment.md), as their commands.
WEB_SERVERS = ("uvicorn", "daphne")


def web_command(server: str, port: int) -> list[str]:
    if server == "daphne":
        return [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port),
                "blaze_site.asgi:application"]
    if server == "uvicorn":
        return [sys.executable, "-m", "uvicorn", "blaze_site.asgi:application",
                "--host", "127.0.0.1", "--port", str(port), *UVICORN_OPTIONS]
    raise ValueError(f"unknown web server {server!r}")


UVICORN_OPTIONS = uvicorn_options()


@contextmanager
def web(env: dict, log: Path, server: str = "uvicorn"):
    """The site in a web process of its own (`server`: uvicorn, as deployed, or daphne) on
    a free port, with `env`, its output in `log`; yields `url` and `proc` (a test may kill
    it). Stopped at the end."""
    port = free_port()
    with open(log, "w") as out:
        proc = subprocess.Popen(web_command(server, port), cwd=ROOT, env=env, stdout=out,
                                stderr=subprocess.STDOUT)
        try:
            wait_for_port(proc, port, log)
            yield SimpleNamespace(url=f"http://127.0.0.1:{port}", proc=proc)
        finally:
            if proc.poll() is None:
                proc.terminate()
                try:
                    proc.wait(timeout=10)
                except subprocess.TimeoutExpired:
                    proc.kill()
                    proc.wait()


def http_json(method: str, url: str, token: str, body: dict | None = None) -> dict:
    """A program's API request (Bearer token) to a real server; the JSON answer."""
    request = urllib.request.Request(
        url, method=method, data=None if body is None else json.dumps(body).encode(),
        headers={"Authorization": f"Bearer {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())
