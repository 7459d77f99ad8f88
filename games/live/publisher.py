"""How synchronous code (a request's thread, a Celery task) sends to a channel-layer group.

With channels-redis's pub/sub layer (the default) a group send is one PUBLISH: the thread
sends it itself, with a blocking client and pool a process, in the format the layer reads
(`group_send_now`). Going through daphne's event loop instead cost two thread hops a
move and the loop's own time, on the process's busiest thread.

Other layers keep a coroutine (`publish`), run on one event loop a process, on a thread
of its own, with its Redis connection kept open (`async_to_sync` in a Celery task made a
new loop, and so a new connection, for every broadcast); never on daphne's loop, which a
request's thread would wait for behind every socket, and for ever once the loop stops
(SIGTERM). The in-memory layer (no Redis) keeps `async_to_sync`, as its queues belong to
the loop of the consumers that read them.
"""

import asyncio
import os
import threading
import weakref

import redis
from asgiref.sync import async_to_sync
from channels.layers import InMemoryChannelLayer, channel_layers
from channels_redis.pubsub import RedisPubSubChannelLayer
from channels_redis.utils import decode_hosts
from django.conf import settings
from redis.backoff import NoBackoff
from redis.retry import Retry

from lib.memory_layer import InMemoryLayer

SEND_SECONDS = 10.0  # a send still pending after this is given up (and logged)

_loop = None
_loop_pid = None
_lock = threading.Lock()
# layer -> (pid, its blocking client and channel prefix, or None): made once, as every
# move broadcasts
_targets: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _publisher_loop() -> asyncio.AbstractEventLoop:
    global _loop, _loop_pid
    with _lock:
        if _loop is None or _loop_pid != os.getpid():  # a forked worker starts its own
            loop = asyncio.new_event_loop()
            threading.Thread(target=loop.run_forever, name="channel-publisher",
                             daemon=True).start()
            _loop, _loop_pid = loop, os.getpid()
        return _loop


def publish(layer, send, *args) -> None:
    """Run the coroutine function `send(layer, *args)` to its end, from synchronous code."""
    if isinstance(layer, InMemoryChannelLayer):
        loop = layer.reader_loop() if isinstance(layer, InMemoryLayer) else None
        if loop is None:
            async_to_sync(send)(layer, *args)
        else:  # its queues belong to its readers' loop (lib.memory_layer)
            asyncio.run_coroutine_threadsafe(send(layer, *args), loop).result(SEND_SECONDS)
        return
    future = asyncio.run_coroutine_threadsafe(send(layer, *args), _publisher_loop())
    future.result(timeout=SEND_SECONDS)


def group_send_now(layer, group: str, message: dict, config: dict | None = None) -> None:
    """Send `message` to `group` from this thread, as `layer.group_send` would. `config` is
    the layer's CONFIG; by default the settings' entry of the layer made from them."""
    target = _pubsub_target(layer, _config_of(layer) if config is None else config)
    if target is None:
        publish(layer, _group_send, group, message)
        return
    client, prefix = target
    client.publish(f"{prefix}__group__{group}", layer.serialize(message))


async def _group_send(layer, group: str, message: dict) -> None:
    await layer.group_send(group, message)


def _config_of(layer) -> dict | None:
    for alias, entry in settings.CHANNEL_LAYERS.items():
        if channel_layers.backends.get(alias) is layer:
            return entry.get("CONFIG", {})
    return None  # a layer made elsewhere: sent through its own coroutine


def _pubsub_target(layer, config: dict | None):
    """(blocking client, channel prefix) for channels-redis's pub/sub layer with one
    server given by address, made once a layer and process; None for any other layer
    (sentinels, shards, lists, memory). Group channels are named as RedisPubSubLoopLayer
    names them (tests/web/test_publisher.py holds the two together)."""
    made = _targets.get(layer)
    if made is not None and made[0] == os.getpid():  # a forked worker makes its own
        return made[1]
    with _lock:
        target = None
        hosts = decode_hosts(config.get("hosts")) \
            if config is not None and isinstance(layer, RedisPubSubChannelLayer) else []
        if len(hosts) == 1 and "address" in hosts[0]:
            options = {k: v for k, v in hosts[0].items() if k != "address"}
            # one quick retry on a new connection (Redis restarted), then the error: a
            # broadcast must not hold a move's answer for seconds
            client = redis.Redis.from_url(hosts[0]["address"], retry=Retry(NoBackoff(), 1),
                                          **options)
            target = (client, config.get("prefix", "asgi"))
        _targets[layer] = (os.getpid(), target)
        return target
