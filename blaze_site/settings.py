"""Settings for Blaze online, read from the environment (see README.md, "Configuration").

BLAZE_ENV=production (or DJANGO_SETTINGS_MODULE=blaze_site.settings_prod) turns on the
secure defaults; the development defaults (SQLite, console email) are only for a first run.
"""

from pathlib import Path

from django.core.exceptions import ImproperlyConfigured

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

_DEV_HOSTS = ["localhost", "127.0.0.1", "[::1]", "testserver"]
ALLOWED_HOSTS = env.list("ALLOWED_HOSTS", default=[] if PRODUCTION else _DEV_HOSTS)
if PRODUCTION and not ALLOWED_HOSTS:
    raise ImproperlyConfigured("ALLOWED_HOSTS must be set when BLAZE_ENV=production.")
CSRF_TRUSTED_ORIGINS = env.list("CSRF_TRUSTED_ORIGINS", default=[])

INSTALLED_APPS = [
    "daphne",  # first, so runserver serves ASGI (WebSockets) too
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "channels",
    "allauth",
    "allauth.account",
    "ninja",
    "accounts",
    "games",
    "ratings",
    "correspondence",
    "tournaments",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "allauth.account.middleware.AccountMiddleware",
    "accounts.middleware.UserTimezoneMiddleware",
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
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "accounts.middleware.current_timezone",
            ],
        },
    },
]

DATABASES = {"default": env_db("DATABASE_URL", default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}")}
DATABASES["default"]["ATOMIC_REQUESTS"] = False
DATABASES["default"]["CONN_MAX_AGE"] = env.int("CONN_MAX_AGE", default=0)
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
ACCOUNT_LOGIN_ON_EMAIL_CONFIRMATION = False
ACCOUNT_RATE_LIMITS_ENABLED = env_bool("ACCOUNT_RATE_LIMITS_ENABLED", default=True)
ACCOUNT_EMAIL_SUBJECT_PREFIX = "[Blaze] "
ACCOUNT_USERNAME_BLACKLIST = ["admin", "bot", "blaze", "api", "system"]

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
SITE_URL = env_url("SITE_URL", default="http://localhost:8000", schemes={"http", "https"})
DEFAULT_FROM_EMAIL = env.str("DEFAULT_FROM_EMAIL", default="Blaze online <noreply@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL

# Redis carries the channel layer and the Celery broker. BLAZE_INMEMORY=1 runs without
# it: in-process channel layer, Celery tasks run eagerly (scripts decide when Redis is down).
REDIS_URL = env_url("REDIS_URL", default="redis://127.0.0.1:6379/0", schemes={"redis", "rediss"})
BLAZE_INMEMORY = env_bool("BLAZE_INMEMORY", default=False)
if BLAZE_INMEMORY:
    CHANNEL_LAYERS = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}
else:
    CHANNEL_LAYERS = {
        "default": {
            "BACKEND": "channels_redis.core.RedisChannelLayer",
            # Several sites may share one Redis: their groups must not meet.
            "CONFIG": {"hosts": [REDIS_URL],
                       "prefix": env.str("CHANNEL_LAYER_PREFIX", default="blaze")},
        }
    }

CELERY_BROKER_URL = env_url("CELERY_BROKER_URL", default=REDIS_URL, schemes={"redis", "rediss"})
CELERY_TASK_ALWAYS_EAGER = BLAZE_INMEMORY or env_bool("CELERY_TASK_ALWAYS_EAGER", default=False)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_DEFAULT_QUEUE = env.str("CELERY_TASK_DEFAULT_QUEUE", default="celery")
CELERY_BEAT_SCHEDULE: dict = {
    # Deadlines live on SeatClock rows; the sweeper times out what is due (never ETA tasks).
    "clocks-sweep": {"task": "correspondence.tasks.clocks_sweep", "schedule": 30.0},
    # Hourly; each player gets one digest a day, from DIGEST_HOUR in their time zone.
    "send-digests": {"task": "correspondence.tasks.send_digests", "schedule": 3600.0},
    # Safety net: start due tournaments, advance rounds whose games all finished.
    "tournaments-tick": {"task": "tournaments.tasks.tournaments_tick", "schedule": 30.0},
    # Guests ("Play against bots" without an account) that never sat down.
    "guests-remove": {"task": "accounts.tasks.guests_remove", "schedule": 3600.0},
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
DIGEST_HOUR = env.int("DIGEST_HOUR", default=8)
if not 0 <= DIGEST_HOUR <= 23:
    raise ImproperlyConfigured("DIGEST_HOUR must be an hour from 0 to 23.")

# Rate limits live in the cache: use CACHE_URL=redis://… when running several processes.
CACHES = {"default": env.cache_url("CACHE_URL", default="locmemcache://")}

LANGUAGE_CODE = "en-us"
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

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"console": {"class": "logging.StreamHandler"}},
    "root": {"handlers": ["console"], "level": env.str("LOG_LEVEL", default="INFO")},
}
