"""Django's Redis cache with one connection pool per server for the whole process.

Under ASGI every request gets its own cache object (the cache handler is context-local),
and Django's client keeps its pools on that object: each request opened new Redis
connections (a rate-limit count, a presence touch) and redis-py reads package metadata
for every new connection. Sharing the pool makes those connections reused, as the
database pool does for PostgreSQL. redis-py's pool is thread-safe and fork-aware.
"""

import threading

from django.core.cache.backends.redis import RedisCache, RedisCacheClient

_clients: dict = {}  # (server, pool options) -> a redis.Redis over its own pool
_lock = threading.Lock()


class SharedPoolClient(RedisCacheClient):
    def get_client(self, key=None, *, write=False):
        # A redis.Redis is cheap to share and dear to build (its table of ~170 reply
        # parsers): one per server and process, like its pool.
        index = self._get_connection_pool_index(write)
        shared = (self._servers[index], self._pool_class,
                  tuple(sorted((k, repr(v)) for k, v in self._pool_options.items())))
        client = _clients.get(shared)
        if client is None:
            with _lock:
                client = _clients.get(shared)
                if client is None:
                    pool = self._pool_class.from_url(self._servers[index], **self._pool_options)
                    client = _clients[shared] = self._client(connection_pool=pool)
        return client


# INCRBY only if the key exists, in one round trip and atomically (Django checks EXISTS
# first, then increments: two round trips, and a key expiring between them came back
# without a timeout). Every rate-limited request increments a counter.
_INCR_IF_EXISTS = """
if redis.call('EXISTS', KEYS[1]) == 1 then return redis.call('INCRBY', KEYS[1], ARGV[1]) end
return nil
"""
_incr_scripts: dict = {}  # id of a shared client -> its registered script


class SharedPoolIncrClient(SharedPoolClient):
    def incr(self, key, delta):
        client = self.get_client(key, write=True)
        script = _incr_scripts.get(id(client))
        if script is None:
            script = _incr_scripts[id(client)] = client.register_script(_INCR_IF_EXISTS)
        value = script(keys=[key], args=[delta])
        if value is None:
            raise ValueError(f"Key '{key}' not found.")
        return value


# A rate window's counter: created with its timeout on the first count, in one round trip
# (django-ratelimit adds, then increments: two round trips on every limited request).
_COUNT = """
local n = redis.call('INCRBY', KEYS[1], ARGV[2])
if n == tonumber(ARGV[2]) then redis.call('EXPIRE', KEYS[1], ARGV[1]) end
return n
"""
_count_scripts: dict = {}


class SharedPoolRedisCache(RedisCache):
    def __init__(self, server, params):
        super().__init__(server, params)
        self._class = SharedPoolIncrClient

    def count(self, key: str, timeout: int, by: int = 1) -> int:
        """Add `by` to the counter `key` (made with `timeout` seconds to live); its count."""
        key = self.make_and_validate_key(key)
        client = self._cache.get_client(key, write=True)
        script = _count_scripts.get(id(client))
        if script is None:
            script = _count_scripts[id(client)] = client.register_script(_COUNT)
        return int(script(keys=[key], args=[int(timeout), int(by)]))
