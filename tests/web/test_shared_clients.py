"""Clients that are dear to build are built once a process, not once a request: the Redis
cache's client and pool (each request gets its own cache object under ASGI), and Celery's
result backend (each request runs on a new thread)."""

import threading
import uuid

import pytest
from django.conf import settings
from django.core.cache import caches

from blaze_site.celery import app as celery_app


@pytest.mark.skipif(settings.BLAZE_INMEMORY, reason="needs Redis as the cache")
def test_every_cache_object_of_a_process_shares_one_redis_client(settings):
    settings.CACHES = {"default": {
        "BACKEND": "lib.redis_cache.SharedPoolRedisCache",
        "LOCATION": settings.REDIS_URL, "KEY_PREFIX": "shared-test"}}
    first, second = caches.create_connection("default"), caches.create_connection("default")
    assert first is not second
    assert first._cache.get_client() is second._cache.get_client()
    first.set("k", "one value", 10)
    assert second.get("k") == "one value"
    pool = first._cache.get_client().connection_pool
    for _ in range(20):
        caches.create_connection("default").get("k")
    assert len(pool._available_connections) + len(pool._in_use_connections) <= 2


@pytest.mark.skipif(settings.BLAZE_INMEMORY, reason="needs Redis as the cache")
def test_a_counter_counts_up_in_place_and_a_missing_one_is_not_created(settings):
    settings.CACHES = {"default": {
        "BACKEND": "lib.redis_cache.SharedPoolRedisCache",
        "LOCATION": settings.REDIS_URL, "KEY_PREFIX": f"incr-test-{uuid.uuid4().hex[:8]}"}}
    cache = caches.create_connection("default")
    with pytest.raises(ValueError):
        cache.incr("missing")
    assert cache.get("missing") is None  # not created by the attempt
    assert cache.add("count", 1, 60)
    assert [cache.incr("count"), cache.incr("count", 5)] == [2, 7]
    assert cache.get("count") == 7
    client = cache._cache.get_client()
    assert 0 < client.ttl(cache.make_key("count")) <= 60  # its window still ends


@pytest.mark.skipif(settings.BLAZE_INMEMORY, reason="needs Redis as the cache")
def test_moves_past_the_rate_are_refused_with_one_redis_round_trip_a_move(settings):
    from types import SimpleNamespace

    from lib.ratelimits import RateLimited, rate_limit_check

    settings.CACHES = {"default": {
        "BACKEND": "lib.redis_cache.SharedPoolRedisCache",
        "LOCATION": settings.REDIS_URL, "KEY_PREFIX": f"rate-test-{uuid.uuid4().hex[:8]}"}}
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS, "move": "3/h"}
    request = SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=77))
    client = caches["default"]._cache.get_client()
    # Redis learns the script on its first use after it starts (EVALSHA, NOSCRIPT, EVAL):
    # once per server, not per move; another user's count teaches it here.
    rate_limit_check(SimpleNamespace(user=SimpleNamespace(is_authenticated=True, pk=78)),
                     "move")
    warm = set(client.scan_iter(f"{caches['default'].key_prefix}*"))
    sent = []
    real = client.connection_pool.get_connection

    def counting(*args, **kwargs):
        sent.append(1)
        return real(*args, **kwargs)

    client.connection_pool.get_connection = counting
    try:
        for _ in range(3):
            rate_limit_check(request, "move")
        assert len(sent) == 3
        with pytest.raises(RateLimited) as refused:
            rate_limit_check(request, "move")
    finally:
        del client.connection_pool.get_connection
    assert 1 <= refused.value.retry_after <= 3600
    counters = list(client.scan_iter(f"{caches['default'].key_prefix}*"))
    counters = [key for key in counters if key not in warm]
    assert len(counters) == 1 and 0 < client.ttl(counters[0]) <= 3601  # the window ends


def test_celery_builds_its_result_backend_once_for_all_threads():
    seen = []
    thread = threading.Thread(target=lambda: seen.append(celery_app.backend))
    thread.start()
    thread.join()
    assert seen[0] is celery_app.backend
