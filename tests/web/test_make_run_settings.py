"""`make run`: the web process and the worker share one cache (Redis when it answers), so
presence written by the socket is seen by the mail task; mail links follow PORT."""

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))

from run_stack import shared_settings  # noqa: E402

_FRESH = {"SITE_URL", "CACHE_URL", "PORT", "BLAZE_INMEMORY", "DEBUG", "BLAZE_ENV"}


def _settings(*names, **env) -> list[str]:
    """Values of settings as a freshly started process with `env` sees them."""
    full = {k: v for k, v in os.environ.items() if k not in _FRESH}
    full.update(env)
    code = ("import django; django.setup(); from django.conf import settings; "
            f"print('\\n'.join(str(eval('settings.' + n)) for n in {list(names)!r}))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, env={**full, "DJANGO_SETTINGS_MODULE": "blaze_site.settings"})
    assert out.returncode == 0, out.stderr
    return out.stdout.split("\n")[: len(names)]


def test_mail_links_follow_the_port_unless_site_url_is_set():
    assert _settings("SITE_URL", PORT="8234") == ["http://localhost:8234"]
    assert _settings("SITE_URL") == ["http://localhost:8000"]
    assert _settings("SITE_URL", PORT="8234", SITE_URL="https://blaze.example") == [
        "https://blaze.example"]


def test_web_and_worker_of_make_run_share_the_redis_cache():
    env = {"REDIS_URL": "redis://127.0.0.1:6379/0", "PORT": "8234"}
    shared_settings(env)
    assert env["CACHE_URL"] == "redis://127.0.0.1:6379/1"
    backend, location, prefix = _settings(
        "CACHES['default']['BACKEND']", "CACHES['default']['LOCATION']",
        "CACHES['default']['KEY_PREFIX']", CACHE_URL=env["CACHE_URL"],
        CHANNEL_LAYER_PREFIX="site-a")
    assert backend == "lib.redis_cache.SharedPoolRedisCache"  # Django's, one pool
    assert location == "redis://127.0.0.1:6379/1" and prefix == "site-a"
    # An explicit CACHE_URL wins; without Redis each process keeps its own.
    mine = {"REDIS_URL": "redis://127.0.0.1:6379/0", "CACHE_URL": "redis://cache:6379/4"}
    shared_settings(mine)
    assert mine["CACHE_URL"] == "redis://cache:6379/4"
    alone = {"REDIS_URL": "redis://127.0.0.1:6379/0", "BLAZE_INMEMORY": "1"}
    shared_settings(alone)
    assert "CACHE_URL" not in alone


@pytest.mark.skipif(not __import__("probe").answers("127.0.0.1", 6379),
                    reason="needs Redis at 127.0.0.1:6379")
def test_presence_touched_by_one_process_is_seen_by_another():
    env = {"REDIS_URL": "redis://127.0.0.1:6379/0"}
    shared_settings(env)
    prefix = f"presence-test-{os.getpid()}"
    common = {"CACHE_URL": env["CACHE_URL"], "CHANNEL_LAYER_PREFIX": prefix,
              "DJANGO_SETTINGS_MODULE": "blaze_site.settings"}
    full = {k: v for k, v in os.environ.items() if k not in _FRESH} | common

    def run(code):
        out = subprocess.run([sys.executable, "-c", "import django; django.setup(); " + code],
                             cwd=ROOT, env=full, capture_output=True, text=True)
        assert out.returncode == 0, out.stderr
        return out.stdout.strip()

    run("from games.live.presence import presence_touch; presence_touch(7, 99)")
    assert run("from games.live.presence import presence_here; "
               "print(presence_here(7, 99))") == "True"
    run("from games.live.presence import presence_leave; presence_leave(7, 99)")
