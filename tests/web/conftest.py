import pytest

from blaze_site.celery import app as celery_app
from games.selectors import state_cache_clear


@pytest.fixture(autouse=True)
def _fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture(autouse=True)
def _eager_tasks_and_fresh_cache():
    # Bot turns run in-process in tests, Redis or not.
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    state_cache_clear()
    yield
    celery_app.conf.task_always_eager = eager
    state_cache_clear()
