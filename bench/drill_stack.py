"""The processes of bench/drills.py, in the production shape: a fresh PostgreSQL database,
a private redis-server (REDIS_URL and CACHE_URL: the shared Redis is never touched), and
scripts/serve_many.sh (web processes, a worker reading every queue and beat, both
under scripts/supervise.py). No Django here: it runs before django.setup()."""

import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parents[1]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def port_open(port: int) -> bool:
    try:
        socket.create_connection(("127.0.0.1", port), timeout=1).close()
        return True
    except OSError:
        return False


def wait_until(predicate, timeout: float, interval: float = 0.1) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(interval)
    return False


def children(pid: int) -> list[int]:
    path = Path(f"/proc/{pid}/task/{pid}/children")
    try:
        return [int(c) for c in path.read_text().split()]
    except OSError:
        return []


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no VmRSS for {pid}")


def site_env(database_url: str, redis_url: str, prefix: str) -> dict:
    """The environment of every process of the drill: production settings, our names."""
    cache_url = redis_url.rsplit("/", 1)[0] + "/1"
    return {
        **os.environ,
        "BLAZE_ENV": "production", "DEBUG": "0", "SECRET_KEY": secrets.token_urlsafe(48),
        "ALLOWED_HOSTS": "127.0.0.1,localhost", "SECURE_SSL_REDIRECT": "0",
        "WEBPUSH_ENABLED": "0",
        "DATABASE_URL": database_url, "REDIS_URL": redis_url, "CACHE_URL": cache_url,
        "CELERY_BROKER_URL": redis_url, "BLAZE_INMEMORY": "0",
        "CELERY_TASK_ALWAYS_EAGER": "0", "CELERY_TASK_DEFAULT_QUEUE": f"q_{prefix}",
        "CHANNEL_LAYER_PREFIX": f"p_{prefix}", "EMAIL_URL": "consolemail://",
        "LOG_LEVEL": "WARNING", "DJANGO_SETTINGS_MODULE": "blaze_site.settings",
    }


def database_fresh(database_url: str, env: dict) -> None:
    """Drop and create the drill's database, migrate it and add the house bots."""
    import psycopg

    parts = urlsplit(database_url)
    name = parts.path.lstrip("/")
    if not name.replace("_", "").isalnum():
        raise SystemExit(f"odd database name {name!r}")
    admin_url = urlunsplit(parts._replace(path="/postgres"))
    with psycopg.connect(admin_url, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        admin.execute(f'CREATE DATABASE "{name}"')
    for command in (["migrate", "-v", "0"], ["blaze_create_bots"]):
        subprocess.run([sys.executable, "manage.py", *command], cwd=ROOT, env=env,
                       check=True, stdout=subprocess.DEVNULL)


class Redis:
    """redis-server --port <port> --save "" --appendonly no, stopped and started at will."""

    def __init__(self, port: int, folder: Path):
        self.port, self.folder, self.proc = port, folder, None
        self.url = f"redis://127.0.0.1:{port}/0"

    def start(self) -> None:
        server = shutil.which("redis-server") or sys.exit("needs redis-server")
        self.proc = subprocess.Popen(
            [server, "--port", str(self.port), "--bind", "127.0.0.1", "--save", "",
             "--appendonly", "no", "--dir", str(self.folder)],
            stdout=subprocess.DEVNULL, start_new_session=True)
        if not wait_until(lambda: port_open(self.port), 30):
            sys.exit(f"redis-server did not start on :{self.port}")

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(timeout=30)


class Site:
    """scripts/serve_many.sh WEB BASE: web processes on BASE+1.., worker and beat supervised."""

    def __init__(self, env: dict, web: int, run_dir: Path):
        self.env, self.web, self.run_dir = env, web, run_dir
        self.base = free_port() - 1 if web else 0
        self.web_pids: list[int] = []
        self.worker_supervisor = self.proc = None

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.base + 1}"

    def start(self) -> None:
        self.proc = subprocess.Popen(
            ["bash", "scripts/serve_many.sh", str(self.web), str(self.base)], cwd=ROOT,
            env={**self.env, "RUN_DIR": str(self.run_dir)}, stdout=subprocess.PIPE,
            text=True, start_new_session=True)
        for _ in range(self.web + 2):  # "uvicorn :port pid N" ..., "celery worker pid N", beat
            line = self.proc.stdout.readline()
            pid = int(line.split(" pid ")[1].split()[0])
            if line.startswith(("uvicorn", "daphne")):
                self.web_pids.append(pid)
            elif line.startswith("celery worker"):
                self.worker_supervisor = pid
        if not wait_until(self.healthy, 180, interval=0.5):
            self.stop()
            sys.exit(f"the site never said healthy:\n{self.logs()}")

    def healthy(self) -> bool:
        if not self.web:
            return self.worker() is not None
        try:
            with urllib.request.urlopen(f"{self.url}/healthz", timeout=10) as answer:
                return answer.status == 200
        except (OSError, urllib.error.HTTPError):
            return False

    def worker(self) -> int | None:
        """The pid of the worker the supervisor runs now (None between two)."""
        pids = children(self.worker_supervisor)
        return pids[0] if pids else None

    def worker_kill(self) -> int:
        """SIGKILL the worker and its pool processes at once; returns the dead worker's pid."""
        pid = self.worker()
        doomed = [pid, *children(pid)]
        for p in doomed:
            os.kill(p, signal.SIGKILL)
        return pid

    def restarts(self) -> int:
        log = self.run_dir / "celery.log"
        return log.read_text(errors="replace").count("supervise:") if log.exists() else 0

    def logs(self, tail: int = 3000) -> str:
        return "".join(f"--- {p.name}\n{p.read_text(errors='replace')[-tail:]}"
                       for p in sorted(self.run_dir.glob("*.log")))

    def stop(self) -> None:
        if self.proc is None or self.proc.poll() is not None:
            return
        # serve_many.sh's trap stops web processes and the supervisors, which stop worker and beat
        # (warm: the pool finishes its tasks); the group only gets what is left after.
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout=60)
        except subprocess.TimeoutExpired:
            os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait()
        try:  # whatever outlived serve_many.sh (a worker's pool process)
            os.killpg(self.proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
