"""Read settings from the environment, failing loudly on values we cannot parse."""

import os

import environ
from django.core.exceptions import ImproperlyConfigured

env = environ.Env()

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}


def env_bool(name: str, default: bool) -> bool:
    raw = os.environ.get(name, "")
    value = raw.strip().lower()
    if not value:
        return default
    if value in _TRUE:
        return True
    if value in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={raw!r} is not a boolean (use 1/0, true/false, yes/no).")


def env_choice(name: str, default: str, choices: set[str]) -> str:
    value = env.str(name, default=default)
    if value not in choices:
        raise ImproperlyConfigured(f"{name}={value!r} must be one of {sorted(choices)}.")
    return value


def env_db(name: str, default: str) -> dict:
    raw = env.str(name, default=default)
    # environ guesses an engine from an unknown scheme; we want an error instead.
    if _scheme(raw) not in environ.Env.DB_SCHEMES:
        raise ImproperlyConfigured(f"{name}={raw!r} is not a database URL we know.")
    config = env.db_url_config(raw)
    if config["ENGINE"] == "django.db.backends.sqlite3":
        # Writers take the lock at BEGIN and wait up to 20 s for it: a deferred
        # transaction that read first fails at once with "database is locked".
        options = config.setdefault("OPTIONS", {})
        options.setdefault("transaction_mode", "IMMEDIATE")
        options.setdefault("timeout", 20)
    return config


def env_url(name: str, default: str, schemes: set[str]) -> str:
    value = env.str(name, default=default)
    if _scheme(value) not in schemes:
        raise ImproperlyConfigured(f"{name}={value!r} must be a URL with scheme {sorted(schemes)}.")
    return value


def env_email(name: str, default: str) -> dict:
    raw = env.str(name, default=default)
    if _scheme(raw) not in environ.Env.EMAIL_SCHEMES:
        raise ImproperlyConfigured(f"{name}={raw!r} is not an email URL we know.")
    return env.email_url_config(raw)


def _scheme(url: str) -> str:
    return url.split("://", 1)[0] if "://" in url else ""
