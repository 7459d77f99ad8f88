"""Settings for Blaze online, read from the environment (docs/configuration.md).

BLAZE_ENV=production (or DJANGO_SETTINGS_MODULE=blaze_site.settings_prod) turns on the
secure defaults; the development defaults (SQLite, console email) are only for a first run.
"""

import re
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

from lib import queues, vapid

from . import COMMAND, COMPUTE_ONLY_COMMANDS, SERVES
from .env import env, env_bool, env_choice, env_db, env_email, env_url

BASE_DIR = Path(__file__).resolve().parent.parent

BLAZE_ENV = env_choice("BLAZE_ENV", "development", {"development", "production"})
PRODUCTION = BLAZE_ENV == "production"
DEBUG = env_bool("DEBUG", default=not PRODUCTION)
if PRODUCTION and DEBUG:
    raise ImproperlyConfigured("DEBUG must be off when BLAZE_ENV=production.")

SECRET_KEY = env.str("SECRET_KEY", default="")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-dev-only-key-never-use-in-production"
elif not DEBUG and (len(SECRET_KEY) < 50 or len(set(SECRET_KEY)) < 5
                    or SECRET_KEY.startswith("django-insecure-")):
    # Django's own rule (check security.W009): sessions and reset links are signed with it.
    raise ImproperlyConfigured(
        "SECRET_KEY is too weak: use at least 50 random characters, e.g. the output of "
        "python3 -c 'import secrets; print(secrets.token_urlsafe(50))'.")

_DEV_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else _DEV_HOSTS)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when BLAZE_ENV=production.")
if not DEBUG and any(host.strip() in ("*", ".") for host in ALLOWED_HOSTS):
    # A wildcard answers any Host header: links in mail and password resets could point
    # at an attacker's domain.
    raise ImproperlyConfigured(
        "ALLOWED_HOSTS must name the site's own hosts (e.g. blaze.example), not '*'.")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    # first, so runserver serves ASGI (WebSockets) too; importing it installs Twisted's
    # reactor, so management commands that do not serve leave it out (blaze_site/__init__)
    *(["daphne"] if SERVES else []),
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "allauth.mfa",
    "ninja",
    "django_ratelimit",
    "csp",
    "accounts",
    "games",
    "ratings",
    "clocks",  # app label "correspondence" (its tables and migrations)
    "notifications",
    "tournaments",
    "social",
    "ops",
]
if COMMAND in COMPUTE_ONLY_COMMANDS:
    # a command that only computes (blaze_replay) needs its own app and the models it
    # refers to, not the others' listeners, which import Celery and the task modules
    INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "accounts", "games"]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "blaze_site.errors.ErrorAnswersMiddleware",
    "blaze_site.security.SiteCSPMiddleware",
    "blaze_site.security.NoStoreMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "blaze_site.anon_limit.AnonymousRateMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.staff_mfa.StaffTwoFactorMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
    "accounts.middleware.UserLanguageMiddleware",
]

ROOT_URLCONF = "blaze_site.urls"
ASGI_APPLICATION = "blaze_site.asgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.middleware.current_timezone",
                "notifications.context.unread_notices",
            ],
        },
    },
]

DATABASES = {"default": env_db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
# Connections are reused: PostgreSQL through psycopg's pool (under ASGI every request
# runs in a thread of its own, so per-thread persistent connections would not be reused);
# other databases keep CONN_MAX_AGE. DB_POOL_MAX_SIZE=0 turns the pool off.
DB_POOL_MAX_SIZE = env.int("DB_POOL_MAX_SIZE", default=16)
# A connection is tried before it is used again, so one that died with the server (a
# PostgreSQL restart) is replaced instead of failing a request: in the pool by
# lib.postgresql, which asks the server only when the socket says something happened;
# a persistent connection by Django's own check.
DB_HEALTH_CHECKS = env_bool("DB_HEALTH_CHECKS", default=True)
if DATABASES["default"]["ENGINE"].endswith("postgresql") and DB_POOL_MAX_SIZE > 0:
    DATABASES["default"]["ENGINE"] = "lib.postgresql"
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = False
    DATABASES["default"].setdefault("OPTIONS", {})["pool"] = {
        "min_size": min(2, DB_POOL_MAX_SIZE), "max_size": DB_POOL_MAX_SIZE, "timeout": 20}
else:
    DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
    DATABASES["default"]["CONN_HEALTH_CHECKS"] = DB_HEALTH_CHECKS
# lib.rows prepares the move path's statements once a connection (off behind a pooler that
# resets sessions, e.g. PgBouncer in transaction mode)
DB_PREPARED_STATEMENTS = env_bool("DB_PREPARED_STATEMENTS", default=True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_USER_MODEL = "accounts.User"
AUTHENTICATION_BACKENDS = [
    "django.contrib.auth.backends.ModelBackend",
    "allauth.account.auth_backends.AuthenticationBackend",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
LOGIN_URL = "account_login"
LOGIN_REDIRECT_URL = "home"

# django-allauth: username + email sign-up, mandatory verification, rate limits on.
ACCOUNT_ADAPTER = "accounts.adapter.AccountAdapter"
ACCOUNT_LOGIN_METHODS = {"username", "email"}
ACCOUNT_SIGNUP_FIELDS = ["username*", "email*", "password1*", "password2*"]
ACCOUNT_EMAIL_VERIFICATION = "mandatory"
ACCOUNT_UNIQUE_EMAIL = True
ACCOUNT_CONFIRM_EMAIL_ON_GET = False
# Confirming in the browser that signed up logs in (allauth checks the session it stashed
# at sign-up; a link opened elsewhere only confirms).
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = True
ACCOUNT_RATE_LIMITS_ENABLED = env_bool("ACCOUNT_RATE_LIMITS_ENABLED", default=True)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Blaze] "
ACCOUNT_USERNAME_BLACKLIST = ["admin", "bot", "blaze", "api", "system"]
# Two-factor sign-in (allauth.mfa): an authenticator app's codes, and recovery codes.
# Staff must set it up before /admin/ opens (accounts/middleware.py).
MFA_SUPPORTED_TYPES = ["totp", "recovery_codes"]
MFA_TOTP_ISSUER = "Blaze online"
# Behind a reverse proxy every request comes from the proxy's address: the client's is in
# X-Forwarded-For (docs/deployment.md, "Behind a proxy"). Login, sign-up and password-reset
# limits and the site's per-address limits read the client's address the same way.
ALLAUTH_TRUSTED_PROXY_COUNT = env.int("ALLAUTH_TRUSTED_PROXY_COUNT", default=0)
ALLAUTH_TRUSTED_CLIENT_IP_HEADER = env.str("ALLAUTH_TRUSTED_CLIENT_IP_HEADER", default="") or None
if not 0 <= ALLAUTH_TRUSTED_PROXY_COUNT <= 5:
    raise ImproperlyConfigured("ALLAUTH_TRUSTED_PROXY_COUNT must be from 0 to 5.")

# Mail: EMAIL_URL, e.g. smtp+tls://user:password@mail.example:587, or the plain EMAIL_HOST,
# EMAIL_PORT, EMAIL_HOST_USER, EMAIL_HOST_PASSWORD, EMAIL_USE_TLS; console by default.
if env.str("EMAIL_URL", default="") or not env.str("EMAIL_HOST", default=""):
    _email = env_email("EMAIL_URL", default="consolemail://")
    EMAIL_BACKEND = _email["EMAIL_BACKEND"]
    EMAIL_HOST = _email.get("EMAIL_HOST") or "localhost"
    EMAIL_PORT = _email.get("EMAIL_PORT") or 25
    EMAIL_HOST_USER = _email.get("EMAIL_HOST_USER") or ""
    EMAIL_HOST_PASSWORD = _email.get("EMAIL_HOST_PASSWORD") or ""
    EMAIL_USE_TLS = bool(_email.get("EMAIL_USE_TLS"))
    EMAIL_USE_SSL = bool(_email.get("EMAIL_USE_SSL"))
    if _email.get("EMAIL_FILE_PATH"):  # filemail:///var/mail/blaze: one file per connection
        EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
else:
    EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    EMAIL_HOST = env.str("EMAIL_HOST")
    EMAIL_PORT = env.int("EMAIL_PORT", default=25)
    EMAIL_HOST_USER = env.str("EMAIL_HOST_USER", default="")
    EMAIL_HOST_PASSWORD = env.str("EMAIL_HOST_PASSWORD", default="")
    EMAIL_USE_TLS = env_bool("EMAIL_USE_TLS", default=False)
    EMAIL_USE_SSL = env_bool("EMAIL_USE_SSL", default=False)
# Links in mail (e.g. "your tournament table is ready") start with this.
# Unset, it follows PORT (make run's port), so links reach this checkout's site.
SITE_URL = env_url("SITE_URL", default=f"http://localhost:{env.int('PORT', default=8000)}",
                   schemes={"http", "https"})
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Blaze online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Redis carries the channel layer and the Celery broker. BLAZE_INMEMORY=1 runs without
# it: in-process channel layer, Celery tasks run eagerly (scripts decide when Redis is down).
REDIS_URL = env_url("REDIS_URL", default="redis://127.0.0.1:6379/0", schemes={"redis", "rediss"})
BLAZE_INMEMORY = env_bool("BLAZE_INMEMORY", default=False)
CHANNEL_LAYER_PREFIX = env.str("CHANNEL_LAYER_PREFIX", default="blaze")
# "pubsub" (RedisPubSubChannelLayer) or "lists" (channels-redis's RedisChannelLayer, with a
# pool that waits): docs/live-play.md has the measurements behind the default.
CHANNEL_LAYER_KIND = env_choice("CHANNEL_LAYER_KIND", "pubsub", {"pubsub", "lists"})
if BLAZE_INMEMORY:
    CHANNEL_LAYERS = {"default": {"BACKEND": "lib.memory_layer.InMemoryLayer"}}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer"
            if CHANNEL_LAYER_KIND == "pubsub"
            else "blaze_site.channel_layers.WaitingPoolRedisChannelLayer",
            "CONFIG": {
                # A consumer waits for messages with a blocking read of 5 s; redis-py 8's
                # default 5 s socket timeout cut it short and closed every quiet socket
                # with 1011 (redis/redis-py#4091). Reads may take a little longer than the
                # wait; a dead Redis is still noticed.
                "hosts": [{"address": REDIS_URL, "socket_timeout": 15,
                           "socket_connect_timeout": 5}],
                # Several sites may share one Redis: their groups must not meet.
                "prefix": CHANNEL_LAYER_PREFIX,
            },
        }
    }

CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", default=REDIS_URL, schemes={"redis", "rediss"})
CELERY_TASK_ALWAYS_EAGER = BLAZE_INMEMORY or env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
# Bot turns, clocks and mail each on a queue of their own (lib/queues.py); a bare
# `celery worker` consumes all four, `-Q <prefix>.bots` only one kind. The queues
# themselves (kombu objects) are declared in blaze_site/celery.py.
CELERY_TASK_ROUTES = queues.task_routes(CELERY_TASK_DEFAULT_QUEUE)
# Every task is idempotent, so a task is acknowledged once it has run, and a worker that
# dies mid-task (SIGKILL, out of memory) leaves it to run again instead of losing it.
# No result backend (the "disabled" one holds nothing): share it across threads, or
# every request's new thread looks it up again through the package metadata.
CELERY_RESULT_BACKEND_THREAD_SAFE = True
CELERY_TASK_ACKS_LATE = True
CELERY_TASK_REJECT_ON_WORKER_LOST = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # an idle worker takes the next task, not a busy one
# Redis hands an unacknowledged task to another worker after this many seconds. It must
# outlast the longest countdown (a live deadline check, 15 min ahead at most) plus the
# longest run (a bot task, 400 moves at most), or countdown tasks run twice (harmless but
# wasted). A task whose whole worker died also waits this long: for bot turns and live
# clocks the watchdog below comes first; mail, ratings and rounds can wait.
CELERY_BROKER_VISIBILITY_TIMEOUT = env.int("CELERY_BROKER_VISIBILITY_TIMEOUT", default=1800)
if CELERY_BROKER_VISIBILITY_TIMEOUT < 1500:
    raise ImproperlyConfigured(
        "CELERY_BROKER_VISIBILITY_TIMEOUT must be at least 1500 s: a live deadline check "
        "waits up to 900 s and a bot task runs up to a few minutes.")
CELERY_BROKER_TRANSPORT_OPTIONS = {"visibility_timeout": CELERY_BROKER_VISIBILITY_TIMEOUT}
# The watchdog: every WATCHDOG_SECONDS a sweep of the rows requeues what a lost task left
# waiting (bot turns, live clocks), so neither a dead worker nor an emptied broker stalls a
# game for longer. A bot turn counts as lost after its pause and thinking time plus this.
BLAZE_WATCHDOG_SECONDS = env.float("BLAZE_WATCHDOG_SECONDS", default=5.0)
if not 1 <= BLAZE_WATCHDOG_SECONDS <= 60:
    raise ImproperlyConfigured("BLAZE_WATCHDOG_SECONDS must be from 1 to 60.")
# Beat sends a heartbeat task this often; /healthz counts a part dead after three missed.
BLAZE_HEARTBEAT_SECONDS = env.float("BLAZE_HEARTBEAT_SECONDS", default=10.0)
if not 1 <= BLAZE_HEARTBEAT_SECONDS <= 300:
    raise ImproperlyConfigured("BLAZE_HEARTBEAT_SECONDS must be from 1 to 300.")
# The strong bot's review of finished games between people (games.reviews, docs/bots.md):
# at most REVIEW_RUNNING reviews under way at once and REVIEW_PER_HOUR begun an hour,
# worked on a slice of REVIEW_SLICE_SECONDS at a time on the bots' queue at low priority
# (beat retries every REVIEW_TICK_SECONDS); each decision gets up to REVIEW_ITERATIONS
# search iterations and a game REVIEW_GAME_ITERATIONS in all (long games get fewer per
# decision, at least 100); a game with more than REVIEW_MAX_DECISIONS human decisions is
# not reviewed. The page shows the decisions the bot rates REVIEW_MARGIN (0..1) better.
BLAZE_REVIEW_RUNNING = env.int("BLAZE_REVIEW_RUNNING", default=1)
# With tasks run in-process (no Redis, no worker) reviews are not made unless this is on:
# the review would run inside the request of a game's last move.
BLAZE_REVIEW_WITHOUT_WORKER = env_bool("BLAZE_REVIEW_WITHOUT_WORKER", default=False)
BLAZE_REVIEW_PER_HOUR = env.int("BLAZE_REVIEW_PER_HOUR", default=60)
BLAZE_REVIEW_ITERATIONS = env.int("BLAZE_REVIEW_ITERATIONS", default=1000)
BLAZE_REVIEW_GAME_ITERATIONS = env.int("BLAZE_REVIEW_GAME_ITERATIONS", default=150_000)
BLAZE_REVIEW_MAX_DECISIONS = env.int("BLAZE_REVIEW_MAX_DECISIONS", default=300)
BLAZE_REVIEW_SLICE_SECONDS = env.float("BLAZE_REVIEW_SLICE_SECONDS", default=5.0)
BLAZE_REVIEW_TICK_SECONDS = env.float("BLAZE_REVIEW_TICK_SECONDS", default=60.0)
BLAZE_REVIEW_MARGIN = env.float("BLAZE_REVIEW_MARGIN", default=0.10)
if BLAZE_REVIEW_RUNNING < 0 or BLAZE_REVIEW_PER_HOUR < 0:
    raise ImproperlyConfigured("BLAZE_REVIEW_RUNNING and BLAZE_REVIEW_PER_HOUR must be >= 0 "
                               "(0 turns reviews off).")
if not 100 <= BLAZE_REVIEW_ITERATIONS <= 100_000 or BLAZE_REVIEW_GAME_ITERATIONS < 100:
    raise ImproperlyConfigured("BLAZE_REVIEW_ITERATIONS must be from 100 to 100000 and "
                               "BLAZE_REVIEW_GAME_ITERATIONS at least 100.")
if not 1 <= BLAZE_REVIEW_MAX_DECISIONS <= 2000:
    raise ImproperlyConfigured("BLAZE_REVIEW_MAX_DECISIONS must be from 1 to 2000.")
if not 0.1 <= BLAZE_REVIEW_SLICE_SECONDS <= 60 or not 5 <= BLAZE_REVIEW_TICK_SECONDS <= 3600:
    raise ImproperlyConfigured("BLAZE_REVIEW_SLICE_SECONDS must be from 0.1 to 60 and "
                               "BLAZE_REVIEW_TICK_SECONDS from 5 to 3600.")
if not 0 <= BLAZE_REVIEW_MARGIN <= 1:
    raise ImproperlyConfigured("BLAZE_REVIEW_MARGIN must be from 0 to 1.")
CELERY_BEAT_SCHEDULE: dict = {
    # Deadlines live on SeatClock rows; the sweeper times out what is due (never ETA tasks):
    # correspondence clocks, and live ones whose deadline check was lost.
    "clocks-sweep": {"task": "clocks.tasks.clocks_sweep",
                     "schedule": BLAZE_WATCHDOG_SECONDS},
    "bots-watchdog": {"task": "games.tasks.bots_watchdog", "schedule": BLAZE_WATCHDOG_SECONDS},
    # Hourly; each player gets one digest a day, from DIGEST_HOUR in their time zone.
    "send-digests": {"task": "notifications.tasks.send_digests", "schedule": 3600.0},
    # Quiet hours that ended: one summary of what was held to each player.
    "notices-release": {"task": "notifications.tasks.notices_release", "schedule": 60.0},
    # Safety net: start due tournaments, advance rounds whose games all finished.
    "tournaments-tick": {"task": "tournaments.tasks.tournaments_tick", "schedule": 30.0},
    # /healthz: a worker and beat are alive (ops.heartbeat).
    "heartbeat": {"task": "ops.tasks.heartbeat", "schedule": BLAZE_HEARTBEAT_SECONDS},
    # Expired sessions and old notices (their tables only grow otherwise), hourly in
    # bounded batches: a backlog clears over a few runs.
    "sessions-clear": {"task": "accounts.tasks.sessions_clear", "schedule": 3600.0},
    "notifications-prune": {"task": "notifications.tasks.notifications_prune",
                            "schedule": 3600.0},
    # Guests ("Play against bots" without an account) that never sat down.
    "guests-remove": {"task": "accounts.tasks.guests_remove", "schedule": 3600.0},
    # Reviews the limits held back, or whose worker died (low priority: after bot turns).
    "reviews-tick": {"task": "games.tasks.review_work", "schedule": BLAZE_REVIEW_TICK_SECONDS,
                     "options": {"priority": 9}},
    # Invitations to a table that nobody answered in time.
    "invitations-expire": {"task": "social.tasks.invitations_expire", "schedule": 300.0},
}
# A bot's pause before it moves in a live game (0 in tests).
# How long the strong bot searches per decision.
BLAZE_BOT_BUDGET_MS = env.int("BLAZE_BOT_BUDGET_MS", default=1000)
if not 10 <= BLAZE_BOT_BUDGET_MS <= 30000:
    raise ImproperlyConfigured("BLAZE_BOT_BUDGET_MS must be from 10 to 30000.")
# A game still running after this many moves circles (RULES.md §9): bots abort it.
BLAZE_MAX_GAME_MOVES = env.int("BLAZE_MAX_GAME_MOVES", default=5000)
if BLAZE_MAX_GAME_MOVES < 100:
    raise ImproperlyConfigured("BLAZE_MAX_GAME_MOVES must be at least 100.")
BOT_PAUSE_SECONDS = env.float("BOT_PAUSE_SECONDS", default=1.5)
if not 0 <= BOT_PAUSE_SECONDS <= 10:
    raise ImproperlyConfigured("BOT_PAUSE_SECONDS must be from 0 to 10.")
# Guest accounts one address may create per hour (the count lives in the shared cache).
GUEST_CREATE_PER_HOUR = env.int("GUEST_CREATE_PER_HOUR", default=20)
if GUEST_CREATE_PER_HOUR < 1:
    raise ImproperlyConfigured("GUEST_CREATE_PER_HOUR must be at least 1.")
# Notices are deleted this many days after they were read, or after they were made if
# never read (notifications.tasks.notifications_prune); each clean-up job deletes at most
# PRUNE_BATCH rows a statement, PRUNE_MAX_BATCHES statements a run.
NOTIFICATIONS_KEEP_READ_DAYS = env.int("NOTIFICATIONS_KEEP_READ_DAYS", default=30)
NOTIFICATIONS_KEEP_UNREAD_DAYS = env.int("NOTIFICATIONS_KEEP_UNREAD_DAYS", default=180)
if not 1 <= NOTIFICATIONS_KEEP_READ_DAYS <= NOTIFICATIONS_KEEP_UNREAD_DAYS:
    raise ImproperlyConfigured("NOTIFICATIONS_KEEP_READ_DAYS must be at least 1 and at most "
                               "NOTIFICATIONS_KEEP_UNREAD_DAYS.")
PRUNE_BATCH = env.int("PRUNE_BATCH", default=5000)
PRUNE_MAX_BATCHES = env.int("PRUNE_MAX_BATCHES", default=20)
if PRUNE_BATCH < 1 or PRUNE_MAX_BATCHES < 1:
    raise ImproperlyConfigured("PRUNE_BATCH and PRUNE_MAX_BATCHES must be at least 1.")
DIGEST_HOUR = env.int("DIGEST_HOUR", default=8)
if not 0 <= DIGEST_HOUR <= 23:
    raise ImproperlyConfigured("DIGEST_HOUR must be an hour from 0 to 23.")
# Digests one run of send_digests looks at, in due order; when more are due it queues
# itself for the next batch, so a run costs the same however many readers the site has.
BLAZE_DIGEST_BATCH = env.int("BLAZE_DIGEST_BATCH", default=200)
if BLAZE_DIGEST_BATCH < 1:
    raise ImproperlyConfigured("BLAZE_DIGEST_BATCH must be at least 1.")

# Web Push (RFC 8030/8291/8292). The VAPID key is the raw P-256 private key, base64url
# (`make run` makes one and keeps it in .run/); without one a development site simply
# sends no push, production refuses to start unless push is turned off (WEBPUSH_ENABLED=0).
WEBPUSH_ENABLED = env_bool("WEBPUSH_ENABLED", default=True)
WEBPUSH_VAPID_PRIVATE_KEY = env.str("WEBPUSH_VAPID_PRIVATE_KEY", default="")
WEBPUSH_VAPID_SUBJECT = env.str("WEBPUSH_VAPID_SUBJECT", default="mailto:admin@localhost")
if WEBPUSH_VAPID_PRIVATE_KEY:
    try:
        vapid.private_number(WEBPUSH_VAPID_PRIVATE_KEY)
    except ValueError as _exc:
        raise ImproperlyConfigured(f"WEBPUSH_VAPID_PRIVATE_KEY: {_exc}.") from None
elif PRODUCTION and WEBPUSH_ENABLED:
    raise ImproperlyConfigured(
        "WEBPUSH_VAPID_PRIVATE_KEY must be set when BLAZE_ENV=production (make one with "
        "`python -c 'from lib.vapid import new_private_key; print(new_private_key())'`), "
        "or turn push off with WEBPUSH_ENABLED=0.")
if not WEBPUSH_VAPID_SUBJECT.startswith(("mailto:", "https://")):
    raise ImproperlyConfigured("WEBPUSH_VAPID_SUBJECT must be a mailto: or https: contact.")
# The push services the server may POST to: a subscription to any other host is refused
# (the server must never be made to POST to arbitrary URLs). "*.example.com" also allows
# subdomains. https only; plain http only to a loopback address listed here (tests, drills).
WEBPUSH_ENDPOINT_HOSTS = env.list("WEBPUSH_ENDPOINT_HOSTS", default=[
    "fcm.googleapis.com",  # Chrome, Opera, Samsung Internet
    "updates.push.services.mozilla.com",  # Firefox
    "web.push.apple.com",  # Safari
    "*.notify.windows.com",  # Edge
])

# Rate limits live in the cache: use CACHE_URL=redis://… when running several processes.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}
# Sites sharing one Redis keep their keys apart, as their channel groups.
CACHES["default"].setdefault("KEY_PREFIX", CHANNEL_LAYER_PREFIX)
if CACHES["default"]["BACKEND"] == "django.core.cache.backends.redis.RedisCache":
    # one pool per process, not per request (lib/redis_cache.py)
    CACHES["default"]["BACKEND"] = "lib.redis_cache.SharedPoolRedisCache"

# The site speaks English, Japanese and Spanish: the account's `language`, else the
# language switch's cookie, else Accept-Language, else English (accounts/middleware.py).
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("ja", "日本語"), ("es", "Español")]
LOCALE_PATHS = [BASE_DIR / "locale"]
FORMAT_MODULE_PATH = ["blaze_site.formats"]  # dates as each language writes them
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
        if PRODUCTION
        else "django.contrib.staticfiles.storage.StaticFilesStorage"
    },
}

if PRODUCTION:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=True)
    SECURE_HSTS_SECONDS = env.int("SECURE_HSTS_SECONDS", default=60 * 60 * 24 * 365)
    SECURE_HSTS_INCLUDE_SUBDOMAINS = True
    SECURE_HSTS_PRELOAD = True
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# Content-Security-Policy (django-csp): scripts only from our own files, never inline
# (templates pass data in data-* attributes or json_script). Styles may be inline.
CONTENT_SECURITY_POLICY = {
    "DIRECTIVES": {
        "default-src": ["'self'"],
        "script-src": ["'self'"],
        "style-src": ["'self'", "'unsafe-inline'"],
        "img-src": ["'self'", "data:"],  # data: the QR code of the two-factor setup
        "connect-src": ["'self'"],  # the API and the game's WebSocket, same origin
        "object-src": ["'none'"],
        "base-uri": ["'self'"],
        "form-action": ["'self'"],
        "frame-ancestors": ["'none'"],
    },
}
# Pages and answers that show secrets or hidden cards are never stored by a browser or
# proxy cache: account pages (new API tokens, two-factor codes), the API, game tables.
BLAZE_NO_STORE_PREFIXES = ["/account/", "/api/", "/games/"]

# ---- abuse limits: request sizes, quotas, rate limits (docs/deployment.md) ----
# A record is at most this many bytes (the API's import body, the page's upload or paste).
BLAZE_MAX_RECORD_BYTES = env.int("BLAZE_MAX_RECORD_BYTES", default=1_000_000)
# Any request body: a record plus room for a multipart form around it. Bigger bodies are
# refused before they are read (blaze_site/body_limit.py); Django's own cap is the same.
BLAZE_MAX_BODY_BYTES = env.int("BLAZE_MAX_BODY_BYTES", default=BLAZE_MAX_RECORD_BYTES + 65_536)
# HTTP requests of one web process running Django's synchronous code at once; the rest
# wait in the event loop (blaze_site/sync_gate.py). 0: no limit (a thread each). A move
# spends most of its time on its thread waiting (PostgreSQL's round trips, the GIL back):
# with two threads a process's requests queued behind those waits; six overlap them, at
# the same CPU a move (docs/live-play.md, session 32: 1,000 tables, runs in turn).
WEB_SYNC_THREADS = env.int("WEB_SYNC_THREADS", default=6)
# A web process's threads under SCHED_BATCH (Linux): a thread woken by another of its
# process does not preempt the one running, which often holds the GIL (blaze_site.scheduling)
WEB_SCHED_BATCH = env.bool("WEB_SCHED_BATCH", default=True)
# A socket's handshake reads are skipped past this under daphne: it has dropped the socket
# by then (its --websocket_connect_timeout default, docs/upgrades.md).
WS_HANDSHAKE_SECONDS = env.float("WS_HANDSHAKE_SECONDS", default=5.0)
# The same under a server that waits for the application's answer (uvicorn): a late read
# still serves a waiting client, and refusing it brings the client back for another
# handshake (games/live/ws_threads.py; docs/live-play.md, session 34).
WS_HANDSHAKE_WAIT_SECONDS = env.float("WS_HANDSHAKE_WAIT_SECONDS", default=30.0)
# The web process's garbage collector: start-up objects frozen, the first generation
# collected every this many allocations (blaze_site/gc_tuning.py); 0: Python's defaults.
# Each collection walks every young object still alive (at 1,000 tables: game states and
# sockets' tasks, 100-150 ms a run whatever the threshold), so rarer is better now that
# requests leave no cycles (docs/history/live-play.md: 2 runs a process in 70 s at 50,000, 11 at
# 10,000).
WEB_GC_GEN0_THRESHOLD = env.int("WEB_GC_GEN0_THRESHOLD", default=50_000)
DATA_UPLOAD_MAX_MEMORY_SIZE = BLAZE_MAX_BODY_BYTES
# Replays answer at most this many plies a page.
BLAZE_REPLAY_PAGE_SIZE = env.int("BLAZE_REPLAY_PAGE_SIZE", default=500)
# Quotas, counted in the database: tables a user created that still wait for players, and
# strong-bot seats at the user's unfinished tables (each strong decision costs ~1 s of CPU).
BLAZE_MAX_WAITING_TABLES = env.int("BLAZE_MAX_WAITING_TABLES", default=5)
BLAZE_MAX_STRONG_BOT_SEATS = env.int("BLAZE_MAX_STRONG_BOT_SEATS", default=4)
# Game sockets one address may hold open without an account, per daphne process.
BLAZE_MAX_ANON_SOCKETS_PER_ADDRESS = env.int("BLAZE_MAX_ANON_SOCKETS_PER_ADDRESS", default=20)
# Rates "N/s|m|h|d", counted in the cache per user (per IP for anonymous requests).
BLAZE_RATE_LIMITS = {
    "game_create": env.str("BLAZE_RATE_GAME_CREATE", default="30/h"),
    "record_import": env.str("BLAZE_RATE_RECORD_IMPORT", default="50/d"),
    # Counted over a minute, not a second: one seat may make many moves in a row (rejecting
    # card by card), which a fast program posts in a burst; a flood averages 10 a second.
    "move": env.str("BLAZE_RATE_MOVE", default="600/m"),
    # Each tournament starts its tables once: its creation is what may be repeated.
    "tournament_create": env.str("BLAZE_RATE_TOURNAMENT_CREATE", default="10/d"),
    # Requests without an account or a token, per client address (5 a second on average).
    "anonymous_request": env.str("BLAZE_RATE_ANONYMOUS_REQUEST", default="300/m"),
}
for _name, _rate in BLAZE_RATE_LIMITS.items():
    if not re.fullmatch(r"[1-9][0-9]*/[smhd]", _rate):
        raise ImproperlyConfigured(
            f"BLAZE_RATE_{_name.upper()}={_rate!r} must be a rate like 30/h (s, m, h or d).")
for _name in ("BLAZE_MAX_RECORD_BYTES", "BLAZE_MAX_BODY_BYTES", "BLAZE_REPLAY_PAGE_SIZE",
              "BLAZE_MAX_WAITING_TABLES", "BLAZE_MAX_STRONG_BOT_SEATS",
              "BLAZE_MAX_ANON_SOCKETS_PER_ADDRESS"):
    if globals()[_name] < 1:
        raise ImproperlyConfigured(f"{_name} must be a positive number.")
RATELIMIT_USE_CACHE = "default"
# Table talk: at most this many messages of one player at one table in this many seconds.
SOCIAL_CHAT_RATE = (env.int("SOCIAL_CHAT_RATE_COUNT", default=8),
                    env.int("SOCIAL_CHAT_RATE_SECONDS", default=30))
if SOCIAL_CHAT_RATE[0] < 1 or SOCIAL_CHAT_RATE[1] < 1:
    raise ImproperlyConfigured("SOCIAL_CHAT_RATE_COUNT and _SECONDS must be positive.")
# An invitation to a table not answered within this many minutes expires.
SOCIAL_CHALLENGE_MINUTES = env.int("SOCIAL_CHALLENGE_MINUTES", default=60)
if SOCIAL_CHALLENGE_MINUTES < 1:
    raise ImproperlyConfigured("SOCIAL_CHALLENGE_MINUTES must be positive.")
RATELIMIT_IP_META_KEY = "lib.ratelimits.client_ip"
# django-ratelimit warns about Django's own RedisCache, which does increment atomically.
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]
if not PRODUCTION:
    # One process in development: the local-memory cache is enough. Production keeps the
    # check (django_ratelimit.E003): limits must live in a cache all processes share.
    SILENCED_SYSTEM_CHECKS.append("django_ratelimit.E003")

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    # A 409 is the API telling a client the game's current seq (two seats answering one
    # view at once): routine in live play, so no warning line for each.
    "filters": {"no_409": {"()": "blaze_site.log_filters.NotConflictFilter"},
                "client_faults": {"()": "blaze_site.log_filters.ClientFaultFilter"}},
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    # uvicorn's own handler stays on "uvicorn" (its errors propagate there)
    "loggers": {"django.request": {"filters": ["no_409"]},
                "uvicorn.error": {"filters": ["client_faults"]}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
