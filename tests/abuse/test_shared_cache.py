"""Rate limits live in the shared cache: what one process counted, another sees."""

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest
from django.test import RequestFactory

from lib.ratelimits import RateLimited, rate_limit_check
from tests.servers import redis_answers

ROOT = Path(__file__).resolve().parents[2]
REDIS = "redis://127.0.0.1:6379/1"

_COUNT_TWICE = """
import django
django.setup()
from types import SimpleNamespace
from django.test import RequestFactory
from lib.ratelimits import rate_limit_check
request = RequestFactory().post("/api/v1/games")
request.user = SimpleNamespace(is_authenticated=True, pk=4242)
rate_limit_check(request, "game_create")
rate_limit_check(request, "game_create")
"""


@pytest.mark.skipif(not redis_answers(), reason="needs Redis on 127.0.0.1:6379")
def test_a_rate_counted_by_one_process_holds_in_another(settings):
    from types import SimpleNamespace

    prefix = f"blaze-test-{uuid.uuid4().hex}"  # this test's keys only; nothing is flushed
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                                   "LOCATION": REDIS, "KEY_PREFIX": prefix}}
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "game_create": "2/h"}
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "tests.abuse.redis_cache_settings",
           "BLAZE_TEST_REDIS_CACHE": REDIS, "BLAZE_TEST_CACHE_PREFIX": prefix,
           "BLAZE_RATE_GAME_CREATE": "2/h"}
    other = subprocess.run([sys.executable, "-c", _COUNT_TWICE], cwd=ROOT, env=env,
                           capture_output=True, text=True)
    assert other.returncode == 0, other.stderr
    request = RequestFactory().post("/api/v1/games")
    request.user = SimpleNamespace(is_authenticated=True, pk=4242)
    with pytest.raises(RateLimited) as refused:
        rate_limit_check(request, "game_create")
    assert refused.value.retry_after >= 1
