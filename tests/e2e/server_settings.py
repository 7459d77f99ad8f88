"""Settings of the web process the browser tests talk to (see `live_asgi` in conftest).

One process does everything: the in-memory channel layer, Celery tasks (bot turns) run
eagerly in-process, mail lands as files the test reads. Nothing touches the Redis or the
database of other checkouts: the database is the test run's own (DATABASE_URL).
"""

import os

from blaze_site.settings import *  # noqa: F403

CHANNEL_LAYERS = {"default": {"BACKEND": "lib.memory_layer.InMemoryLayer"}}
CELERY_TASK_ALWAYS_EAGER = True
CELERY_TASK_EAGER_PROPAGATES = True
BOT_PAUSE_SECONDS = 0.0
ACCOUNT_RATE_LIMITS_ENABLED = False
EMAIL_BACKEND = "django.core.mail.backends.filebased.EmailBackend"
EMAIL_FILE_PATH = os.environ["BLAZE_E2E_MAIL_DIR"]
INSTALLED_APPS = [*INSTALLED_APPS, "tests.e2e.seeded_deals"]  # noqa: F405
