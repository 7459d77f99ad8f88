"""channels-redis's list layer (CHANNEL_LAYER_KIND=lists) with a pool that waits.

redis-py's asyncio pool raises "Too many connections" when more than 100 commands of a
process want a connection at once. A wave of sockets closing together (each leaves its
groups: the end of a tournament round, a restart of the clients) passed that and killed
their consumers with tracebacks. This pool waits for a free connection instead. (The
pub/sub layer, the default, sends everything over one connection a process.)"""

from channels_redis.core import RedisChannelLayer
from redis.asyncio import BlockingConnectionPool

POOL_SIZE = 100  # as redis-py's default, which raised past it
POOL_WAIT_SECONDS = 20


class WaitingPoolRedisChannelLayer(RedisChannelLayer):
    def create_pool(self, index):
        host = dict(self.hosts[index])
        if "address" not in host:  # sentinels and the rest: channels-redis's own pool
            return super().create_pool(index)
        address = host.pop("address")
        host.setdefault("max_connections", POOL_SIZE)
        host.setdefault("timeout", POOL_WAIT_SECONDS)
        return BlockingConnectionPool.from_url(address, **host)
