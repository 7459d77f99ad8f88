import os
import secrets
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.exceptions import ImproperlyConfigured

from blaze_site.env import env_bool, env_db, env_email, env_url
from lib.vapid import new_private_key

ROOT = Path(__file__).resolve().parents[2]


# Variables the test process may carry that would change what a fresh start sees.
_NOT_INHERITED = {"DEBUG", "BLAZE_ENV", "DJANGO_ALLOW_ASYNC_UNSAFE"}


def _run(args, **env):
    full_env = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    full_env.update(env)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=full_env, capture_output=True, text=True
    )


@pytest.mark.parametrize("raw, expected", [("1", True), ("yes", True), ("False", False)])
def test_env_bool_reads_usual_spellings(monkeypatch, raw, expected):
    monkeypatch.setenv("BLAZE_X", raw)
    assert env_bool("BLAZE_X", default=not expected) is expected


def test_env_bool_takes_the_default_when_unset_or_empty(monkeypatch):
    monkeypatch.setenv("BLAZE_X", "")
    assert env_bool("BLAZE_X", default=True) is True
    monkeypatch.delenv("BLAZE_X")
    assert env_bool("BLAZE_X", default=False) is False


def test_env_bool_rejects_a_bad_value(monkeypatch):
    monkeypatch.setenv("BLAZE_X", "maybe")
    with pytest.raises(ImproperlyConfigured, match="BLAZE_X"):
        env_bool("BLAZE_X", default=False)


@pytest.mark.parametrize("url", ["nonsense", "foo://host/db", "mysqlx://"])
def test_env_db_rejects_a_bad_database_url(monkeypatch, url):
    monkeypatch.setenv("BLAZE_DB", url)
    with pytest.raises(ImproperlyConfigured):
        env_db("BLAZE_DB", default="sqlite:///x")


def test_env_db_reads_postgres_urls(monkeypatch):
    monkeypatch.setenv("BLAZE_DB", "postgres://postgres@127.0.0.1:5432/blaze")
    config = env_db("BLAZE_DB", default="sqlite:///x")
    assert (config["ENGINE"], config["NAME"]) == ("django.db.backends.postgresql", "blaze")


def test_env_url_and_env_email_reject_bad_schemes(monkeypatch):
    monkeypatch.setenv("BLAZE_R", "http://127.0.0.1:6379")
    with pytest.raises(ImproperlyConfigured):
        env_url("BLAZE_R", default="redis://x", schemes={"redis"})
    monkeypatch.setenv("BLAZE_E", "pigeon://coop")
    with pytest.raises(ImproperlyConfigured):
        env_email("BLAZE_E", default="consolemail://")


@pytest.mark.parametrize(
    "env",
    [
        {"DEBUG": "maybe"},
        {"DATABASE_URL": "nonsense"},
        {"REDIS_URL": "localhost:6379"},
        {"DEBUG": "0", "SECRET_KEY": ""},
        {"BLAZE_ENV": "staging"},
    ],
)
def test_settings_fail_loudly_on_bad_environment(env):
    result = _run(["-c", "import blaze_site.settings"], **env)
    assert result.returncode != 0
    assert "ImproperlyConfigured" in result.stderr


def test_production_settings_pass_the_deploy_check():
    result = _run(
        ["manage.py", "check", "--deploy", "--fail-level", "WARNING"],
        DJANGO_SETTINGS_MODULE="blaze_site.settings_prod",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="blaze.example",
        CACHE_URL="redis://127.0.0.1:6379/1",  # not connected to by the check
        WEBPUSH_VAPID_PRIVATE_KEY=new_private_key(),
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_production_refuses_a_cache_that_processes_do_not_share():
    # Rate limits count in the cache: per-process memory would let each process count alone.
    result = _run(
        ["manage.py", "check", "--deploy"],
        DJANGO_SETTINGS_MODULE="blaze_site.settings_prod",
        SECRET_KEY=secrets.token_urlsafe(50),
        ALLOWED_HOSTS="blaze.example",
        CACHE_URL="locmemcache://",
        WEBPUSH_VAPID_PRIVATE_KEY=new_private_key(),
    )
    assert result.returncode != 0
    assert "not a shared cache" in result.stderr


def test_production_settings_need_a_secret_key():
    result = _run(
        ["manage.py", "check"],
        DJANGO_SETTINGS_MODULE="blaze_site.settings_prod",
        SECRET_KEY="",
        ALLOWED_HOSTS="blaze.example",
    )
    assert result.returncode != 0
    assert "SECRET_KEY" in result.stderr


def test_sqlite_transactions_take_the_write_lock_first_so_simultaneous_moves_wait(
    monkeypatch, tmp_path
):
    # move_play reads then writes inside one transaction, and select_for_update is a
    # no-op on SQLite: with deferred transactions two simultaneous bets both read, and
    # the second writer fails at once with "database is locked" (a 500). Taking the
    # write lock at BEGIN makes the second one wait for the first instead.
    monkeypatch.setenv("BLAZE_DB", f"sqlite:///{tmp_path / 'site.sqlite3'}")
    options = env_db("BLAZE_DB", default="sqlite:///x").get("OPTIONS", {})
    assert options.get("transaction_mode") == "IMMEDIATE"
    assert options.get("timeout", 5) >= 20
    monkeypatch.setenv("BLAZE_DB", "postgres://postgres@127.0.0.1:5432/blaze")
    assert "transaction_mode" not in env_db("BLAZE_DB", default="sqlite:///x").get("OPTIONS", {})


_GC_PROBE = ("import gc, blaze_site.asgi; "
             "print(gc.get_freeze_count() > 10_000, gc.get_threshold()[0])")


def test_the_web_process_freezes_its_start_up_objects_out_of_garbage_collection():
    done = _run(["-c", _GC_PROBE], DJANGO_SETTINGS_MODULE="blaze_site.settings")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["True", "50000"]


def test_the_collector_keeps_pythons_defaults_when_the_threshold_is_zero():
    done = _run(["-c", _GC_PROBE], DJANGO_SETTINGS_MODULE="blaze_site.settings",
                WEB_GC_GEN0_THRESHOLD="0")
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["False", "700"]
