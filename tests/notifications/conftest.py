import pytest


@pytest.fixture(autouse=True)
def _clock_test_settings(settings):
    settings.BOT_PAUSE_SECONDS = 0
    settings.SITE_URL = "https://blaze.example"
    settings.DIGEST_HOUR = 8
    # The players' fixtures hash passwords: the fast hasher keeps these tests quick.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def eager(eager_tasks):
    """Bot turns and emails run in-process."""
