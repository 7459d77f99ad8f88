import pytest

from blaze_site.celery import app as celery_app


@pytest.fixture(autouse=True)
def _clock_test_settings(settings):
    settings.BOT_PAUSE_SECONDS = 0
    settings.SITE_URL = "https://blaze.example"
    settings.DIGEST_HOUR = 8
    # The players' fixtures hash passwords: the fast hasher keeps these tests quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def eager():
    """Bot turns and emails run in-process."""
    from games.selectors import state_cache_clear

    before = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    state_cache_clear()
    yield
    celery_app.conf.task_always_eager = before
    state_cache_clear()
