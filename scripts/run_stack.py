"""Run the whole local stack (`make run`): prepare the database, then the web server
(uvicorn), a Celery worker and Celery beat, stopped together on Ctrl-C.

Redis comes from REDIS_URL; when nothing answers there and redis-server is installed, one
is started for this run. With no Redis at all the site still runs: in-memory channel
layer, Celery tasks executed in-process.
"""

import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlparse

from mail_watch import MailWatch, use_mail_files
from probe import answers

from lib.web_server import uvicorn_options

ROOT = Path(__file__).resolve().parent.parent
BIN = Path(sys.executable).parent
RUN_DIR = ROOT / ".run"


def redis_start(env: dict) -> subprocess.Popen | None:
    """Make sure Redis answers at REDIS_URL; return a server we started, if any."""
    url = urlparse(env.setdefault("REDIS_URL", "redis://127.0.0.1:6379/0"))
    host, port = url.hostname or "127.0.0.1", url.port or 6379
    if answers(host, port):
        return None
    server = shutil.which("redis-server")
    if server and host in ("127.0.0.1", "localhost"):
        data = RUN_DIR / "redis"
        data.mkdir(parents=True, exist_ok=True)
        print(f"Starting redis-server on port {port} for this run (data in {data}).")
        # Append-only file: queued tasks (bot turns, mail) survive a restart of this Redis.
        proc = subprocess.Popen(
            [server, "--port", str(port), "--bind", "127.0.0.1", "--dir", str(data),
             "--appendonly", "yes", "--appendfsync", "everysec", "--save", ""],
            stdout=subprocess.DEVNULL,
        )
        for _ in range(50):
            if answers(host, port):
                return proc
            time.sleep(0.1)
        proc.terminate()
    print(
        "NOTICE: no Redis at REDIS_URL: running with the in-memory channel layer and\n"
        "        Celery tasks executed in-process (no worker, no beat).",
        flush=True,
    )
    env["BLAZE_INMEMORY"] = "1"
    return None


def shared_settings(env: dict) -> None:
    """What the web process, the worker and beat must agree on: one cache for all of them (Redis
    when it answers: presence and rate limits written by one are read by another). Mail
    links follow PORT in the settings (SITE_URL unset)."""
    env.setdefault("PORT", "8000")
    if env.get("BLAZE_INMEMORY") != "1":
        url = urlparse(env["REDIS_URL"])
        # The cache takes the next database after the broker's, apart from its keys.
        db = int((url.path or "/0").lstrip("/") or 0)
        env.setdefault("CACHE_URL", url._replace(path=f"/{(db + 1) % 16}").geturl())


def vapid_key(env: dict, run_dir: Path = RUN_DIR) -> None:
    """Web Push needs a VAPID key: unless the environment gives one, make one on the first
    start and keep it in .run/ (browsers' subscriptions are tied to it)."""
    if env.get("WEBPUSH_VAPID_PRIVATE_KEY"):
        return
    from lib.vapid import new_private_key  # the project is installed in the venv

    path = run_dir / "vapid_private_key"
    if not path.exists():
        run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as out:
            out.write(new_private_key() + "\n")
        print(f"Made a Web Push (VAPID) key for this site: {path}", flush=True)
    env["WEBPUSH_VAPID_PRIVATE_KEY"] = path.read_text().strip()


def manage(env: dict, *args: str) -> None:
    subprocess.run([str(BIN / "python"), "manage.py", *args], cwd=ROOT, env=env, check=True)


def main() -> int:
    env = dict(os.environ)
    env.setdefault("DEBUG", "1")
    env.setdefault("PYTHONUNBUFFERED", "1")
    RUN_DIR.mkdir(exist_ok=True)
    # Explicit handlers: a shell may start us with SIGINT ignored (background jobs).
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    children = []
    redis = None if env.get("BLAZE_INMEMORY") == "1" else redis_start(env)
    if redis:
        children.append(redis)
    shared_settings(env)
    vapid_key(env)
    mail_folder = use_mail_files(env, RUN_DIR)
    try:
        manage(env, "migrate", "--noinput")
        manage(env, "blaze_create_bots")
        manage(env, "collectstatic", "--noinput", "--verbosity", "0")
        commands = [[str(BIN / "uvicorn"), "blaze_site.asgi:application", "--host",
                     "127.0.0.1", "--port", env["PORT"], *uvicorn_options()]]
        if env.get("BLAZE_INMEMORY") != "1":
            # Under the supervisor: a worker that a Redis restart ends is started again.
            celery = [str(BIN / "python"), str(ROOT / "scripts" / "supervise.py"), "--",
                      str(BIN / "celery")]
            # With no -Q a worker reads every queue of the site (bots, clocks, mail, the rest).
            commands.append([*celery, "-A", "blaze_site", "worker", "-l", "info", "-c", "2"])
            commands.append([*celery, "-A", "blaze_site", "beat", "-l", "info",
                             "-s", str(RUN_DIR / "celerybeat-schedule")])
        for command in commands:
            children.append(subprocess.Popen(command, cwd=ROOT, env=env))
        print(f"Blaze online: http://127.0.0.1:{env['PORT']}/  (Ctrl-C stops; cache: "
              f"{env.get('CACHE_URL', 'in-process')})", flush=True)
        mail = MailWatch(mail_folder) if mail_folder else None
        if mail:
            print(f"Mail goes to {mail_folder}; each new one is shown here in a box.",
                  flush=True)
        # One process dying takes the stack down: a half-running site only confuses
        # (worker and beat are started again by their supervisor instead).
        while all(child.poll() is None for child in children):
            for box in mail.new_mail() if mail else ():
                print(box, flush=True)
            time.sleep(0.5)
        dead = next(child for child in children if child.poll() is not None)
        print(f"{dead.args[0]} exited ({dead.returncode}): stopping the stack.", flush=True)
        return 1
    except KeyboardInterrupt:
        return 0
    finally:
        stop(children)


def stop(children: list) -> None:
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    deadline = time.monotonic() + 10
    for child in children:
        try:
            child.wait(timeout=max(0.1, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            child.kill()


if __name__ == "__main__":
    sys.exit(main())
