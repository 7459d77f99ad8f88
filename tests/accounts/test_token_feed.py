"""With a shared Redis cache, a process hears token changes announced by any process, and
so looks up a remembered token with no round trip to the cache at all; when it cannot
vouch that it has heard every announcement, it reads the shared counter as before."""

import os
import time
import uuid

import pytest
import redis
from django.utils import timezone

from accounts import token_cache
from accounts.models import ApiToken
from accounts.services import api_token_create, api_token_find
from lib import change_feed
from tests.servers import redis_answers

pytestmark = pytest.mark.django_db(transaction=True)
REDIS = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


needs_redis = pytest.mark.skipif(not redis_answers(), reason="needs Redis on 127.0.0.1:6379")


@pytest.fixture
def shared_cache(settings):
    """This test's own keys and channel in the real Redis (nothing is flushed)."""
    settings.CACHES = {"default": {"BACKEND": "lib.redis_cache.SharedPoolRedisCache",
                                   "LOCATION": REDIS,
                                   "KEY_PREFIX": f"blaze-test-{uuid.uuid4().hex}"}}
    token_cache.clear()


@pytest.fixture
def feed(shared_cache, monkeypatch):
    """A listener of this process, held fresh once confirmed (no test of the clock's),
    reading the counter at every PONG (what is read, not how often, is under test)."""
    monkeypatch.setattr(change_feed, "FRESH_SECONDS", 3600.0)
    monkeypatch.setattr(change_feed, "POLL_CYCLES", 1)
    listener = change_feed.ChangeFeed(token_cache.GENERATION_KEY,
                                      poll=token_cache._generation_read)
    monkeypatch.setattr(token_cache, "_changes", listener)
    yield listener
    listener.stop()


def _until(check, what: str):
    deadline = time.monotonic() + 60  # a liveness bound, not a timing: never reached when well
    while time.monotonic() < deadline:
        value = check()
        if value:
            return value
        time.sleep(0.01)
    raise AssertionError(f"never: {what}")


def _heard(feed):
    return _until(lambda: feed.mark(), "the listener's first answered PING")


def _cycles(feed, count: int) -> None:
    """Wait for `count` more of the listener's answered PINGs (each followed by a poll)."""
    for _ in range(count):
        at = feed._confirmed_at
        _until(lambda at=at: feed._confirmed_at > at, "the listener's next answered PING")


def _created(feed, user):
    """A new token, once this process has heard all its creation changed (the
    announcement and the counter; heard after the lookup, they would make the lookup's
    memory be forgotten: safe, but a query)."""
    before = feed.mark()
    token, secret = api_token_create(user=user, name="bot")
    _until(lambda: feed.mark() not in (None, before), "the creation's announcement heard")
    while True:  # until two whole cycles hear nothing more
        now = feed.mark()
        _cycles(feed, 2)
        if feed.mark() == now:
            return token, secret


def _find(secret):
    token = api_token_find(secret)
    return None if token is None else token.user.username


def _asked(monkeypatch) -> list:
    asked = []
    real = token_cache._generation

    def counting():
        asked.append(1)
        return real()

    monkeypatch.setattr(token_cache, "_generation", counting)
    return asked


@needs_redis
def test_a_remembered_token_costs_no_round_trip_while_every_change_is_heard(
        ann, feed, monkeypatch, django_assert_num_queries):
    _heard(feed)
    _, secret = _created(feed, ann)
    assert _find(secret) == "ann"
    asked = _asked(monkeypatch)
    with django_assert_num_queries(0):
        assert _find(secret) == "ann"
        assert _find(secret) == "ann"
    assert asked == []


def _announced(feed):
    other = redis.Redis.from_url(REDIS)
    other.publish(feed._target[1], "1")
    other.close()


def _counted(feed):
    from django.core.cache import cache

    cache.incr(token_cache.GENERATION_KEY)


@needs_redis
@pytest.mark.parametrize("told", [_announced, _counted], ids=[
    "announced", "only counted (its PUBLISH failed, or an older release made it)"])
def test_a_token_revoked_by_another_process_is_refused_once_this_one_hears_of_it(
        ann, feed, monkeypatch, told):
    _heard(feed)
    token, secret = _created(feed, ann)
    assert _find(secret) == "ann"
    first = feed.mark()
    asked = _asked(monkeypatch)
    # another process: the row changed there, and it told; nothing local moved
    ApiToken.objects.filter(pk=token.pk).update(revoked_at=timezone.now())
    assert _find(secret) == "ann"
    told(feed)
    _until(lambda: feed.mark() not in (None, first), "the change heard")
    assert _find(secret) is None
    assert asked == []


@needs_redis
def test_a_revocation_here_is_announced_to_every_listener(ann, feed):
    from accounts.services import api_token_revoke

    _heard(feed)
    token, secret = _created(feed, ann)
    assert _find(secret) == "ann"
    first = feed.mark()
    assert api_token_revoke(user=ann, token_id=token.pk)
    _until(lambda: feed.mark() not in (None, first), "our own announcement heard")
    assert _find(secret) is None


@needs_redis
def test_a_listener_cut_off_from_redis_subscribes_again_under_a_new_mark(ann, feed):
    first = _heard(feed)
    admin = redis.Redis.from_url(REDIS)
    ids = [c["id"] for c in admin.client_list() if c.get("name") == feed.client_name]
    assert ids, "the listener names itself in Redis"
    for client_id in ids:
        admin.client_kill_filter(_id=client_id)
    admin.close()
    # whatever was announced while it was cut off may be lost: the mark is never the old one
    second = _until(lambda: (m := feed.mark()) is not None and m[0] > first[0] and m,
                    "a new subscription")
    assert second != first


@needs_redis
def test_without_a_listener_that_can_vouch_each_lookup_reads_the_shared_counter(
        ann, shared_cache, monkeypatch):
    from django.core.cache import cache

    # nothing answers there: the listener never confirms
    nowhere = change_feed.ChangeFeed(token_cache.GENERATION_KEY,
                                     where=lambda: ("redis://127.0.0.1:1/0", "nowhere"))
    monkeypatch.setattr(token_cache, "_changes", nowhere)
    _, secret = api_token_create(user=ann, name="bot")
    assert _find(secret) == "ann"
    asked = _asked(monkeypatch)
    assert _find(secret) == "ann"
    assert asked == [1]
    ApiToken.objects.filter(user=ann).update(revoked_at=timezone.now())
    cache.incr(token_cache.GENERATION_KEY)  # another process's change, not announced
    assert _find(secret) is None
    nowhere.stop()


def test_a_cache_that_is_not_redis_has_no_listener(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    local = change_feed.ChangeFeed("anything")
    assert local.mark() is None and local.mark() is None
    local.announce()  # nothing to tell: no error
    local.stop()
