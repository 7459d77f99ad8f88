"""Settings for a second process sharing one Redis cache with the test (see
test_a_rate_counted_by_one_process_holds_in_another)."""

import os

from blaze_site.settings import *  # noqa: F403

CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache",
                      "LOCATION": os.environ["BLAZE_TEST_REDIS_CACHE"],
                      "KEY_PREFIX": os.environ["BLAZE_TEST_CACHE_PREFIX"]}}
