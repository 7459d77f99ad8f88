"""A change every process hears at once, without asking Redis on each request.

`announce()` publishes on a Redis channel; in each process a thread listens to it and,
every PING_SECONDS, sends a PING on the same connection. Redis answers in order, so its
PONG proves that every announcement made before the PING was read. With `poll`, the
thread also reads a value after every POLL_CYCLES-th PONG (the shared counter the change
moved), so a change that was not announced (a failed PUBLISH, a process of an older
release) is heard too, within a second. `mark()` is a value that changes with every
announcement or polled change heard (and with every new subscription, since a
reconnection may have missed some); it is None whenever this process cannot vouch for it:
no Redis cache, the listener not subscribed yet, or no PONG for a PING sent within the
last FRESH_SECONDS. Callers then ask the shared cache themselves, as they would without
this. An announcement is thus heard at once, or within FRESH_SECONDS when the listener
falls behind (a stalled connection, a starved thread).
"""

import itertools
import logging
import os
import threading
import time
import weakref

import redis
from django.conf import settings
from django.core.cache import cache
from django.core.signals import setting_changed

log = logging.getLogger(__name__)

PING_SECONDS = 0.2
FRESH_SECONDS = 0.5
POLL_CYCLES = 5  # the poll is the fallback for changes never announced: once a second
RETRY_SECONDS = 1.0
_NEVER = float("-inf")


def _redis_location() -> str | None:
    """The shared cache's Redis (its first server), or None when the cache is not Redis."""
    config = settings.CACHES["default"]
    if not config["BACKEND"].endswith("RedisCache"):
        return None
    location = config["LOCATION"]
    if isinstance(location, str):
        location = location.split(",")
    return location[0]


class ChangeFeed:
    """One named change signal. `where` gives (Redis URL, channel) or None; by default the
    shared cache's Redis, and a channel named as the cache names its keys. `poll`: a
    value read after every POLL_CYCLES-th PONG; its change counts as an announcement."""

    def __init__(self, name: str, where=None, poll=None):
        self.name = name
        self._where = where or self._cache_channel
        self._poll = poll
        self._lock = threading.Lock()
        self._started_in = None  # the pid whose listener runs (a forked child starts its own)
        self._target = None
        self._epoch = 0  # subscriptions made; each may have missed what came before it
        self._heard = 0
        self._confirmed_at = _NEVER  # when the last answered PING was sent
        self._stop = threading.Event()
        self._publisher = None  # (url, client): announcements are rare, the client is kept
        _feeds.add(self)

    @property
    def client_name(self) -> str:
        """The listener's name in Redis's CLIENT LIST."""
        return f"change-feed-{self.name}-{os.getpid()}"

    def _cache_channel(self):
        location = _redis_location()
        return None if location is None else (location, f"{cache.make_key(self.name)}:changes")

    def mark(self):
        """A value that changes whenever an announcement is heard; None: ask the cache."""
        if self._started_in != os.getpid():
            self._start()
            return None
        if time.monotonic() - self._confirmed_at > FRESH_SECONDS:
            return None
        return (self._epoch, self._heard)

    def announce(self) -> None:
        """Tell every process (after the change is in the shared cache or database)."""
        target = self._target or self._where()
        if target is None:
            return
        url, channel = target
        if self._publisher is None or self._publisher[0] != url:
            self._publisher = (url, redis.Redis.from_url(url, socket_connect_timeout=2,
                                                         socket_timeout=2))
        self._publisher[1].publish(channel, "1")

    def stop(self) -> None:
        self._stop.set()
        self._confirmed_at = _NEVER

    def reset(self) -> None:
        """Stop listening; the next mark() listens where the settings now say."""
        with self._lock:
            self.stop()
            self._started_in = self._target = self._publisher = None

    def _start(self) -> None:
        with self._lock:
            if self._started_in == os.getpid():
                return
            self._started_in = os.getpid()
            self._confirmed_at = _NEVER
            self._stop = threading.Event()
            self._target = self._where()
            if self._target is None:  # nothing to listen to: mark() stays None
                return
            threading.Thread(target=self._listen, args=(self._stop,), daemon=True,
                             name=f"change-feed {self.name}").start()

    def _listen(self, stop: threading.Event) -> None:
        while not stop.is_set():
            try:
                self._listen_once(stop)
            except Exception as exc:  # Redis restarting or unreachable: try again
                self._confirmed_at = _NEVER
                log.warning("change feed %s: %s; listening again in %ss", self.name, exc,
                            RETRY_SECONDS)
                stop.wait(RETRY_SECONDS)

    def _listen_once(self, stop: threading.Event) -> None:
        url, channel = self._target
        client = redis.Redis.from_url(url, socket_connect_timeout=2, socket_timeout=5,
                                      socket_keepalive=True, client_name=self.client_name)
        pubsub = client.pubsub()
        try:
            pubsub.subscribe(channel)
            polled = None
            for number in itertools.count():
                if stop.is_set():
                    return
                sent, token = time.monotonic(), f"{os.getpid()}-{number}"
                pubsub.ping(token)
                while True:
                    left = sent + PING_SECONDS * 5 - time.monotonic()
                    if left <= 0:
                        raise TimeoutError("no answer to a PING")
                    message = pubsub.get_message(timeout=left)
                    if message is not None and self._note(message, token):
                        break
                if self._poll is not None and number % POLL_CYCLES == 0:
                    value = self._poll()  # read after the PING was sent
                    if number and value != polled:
                        self._heard += 1
                    polled = value
                self._confirmed_at = sent
                pause = sent + PING_SECONDS - time.monotonic()
                while pause > 0:  # announcements between PINGs are counted as they come
                    message = pubsub.get_message(timeout=pause)
                    if message is not None:
                        self._note(message, None)
                    pause = sent + PING_SECONDS - time.monotonic()
        finally:
            self._confirmed_at = _NEVER
            pubsub.close()
            client.close()

    def _note(self, message: dict, token: str | None) -> bool:
        """Count what came; True for the PONG of `token`."""
        kind = message["type"]
        if kind == "message":
            self._heard += 1
        elif kind == "subscribe":  # a new subscription (redis-py resubscribes on its own)
            self._epoch += 1
        elif kind == "pong":
            data = message["data"]
            return token is not None and (data.decode() if isinstance(data, bytes)
                                          else data) == token
        return False


_feeds: weakref.WeakSet = weakref.WeakSet()


def _cache_settings_changed(setting, **kwargs) -> None:
    # settings change only under tests (override_settings): a listener started under
    # another cache must not keep vouching for it
    if setting == "CACHES":
        for feed in list(_feeds):
            feed.reset()


setting_changed.connect(_cache_settings_changed)
