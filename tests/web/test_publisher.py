"""Synchronous code (a request's thread, a Celery task) sends to the channel layer: on the
pub/sub layer with a blocking PUBLISH of its own, on others through one event loop a
process, not a new loop and connection each time."""

import asyncio
import threading
import uuid

import pytest
from asgiref.sync import SyncToAsync, async_to_sync
from channels.layers import get_channel_layer
from channels_redis.core import RedisChannelLayer
from channels_redis.pubsub import RedisPubSubChannelLayer
from django.conf import settings as django_settings

from games.live import messages, publisher
from tests import servers
from tests.web.test_game_websocket import _own_channel_prefix  # noqa: F401 (a fixture)


@pytest.mark.skipif(django_settings.BLAZE_INMEMORY,
                    reason="the in-memory layer sends on its consumers' own loop")
def test_sends_from_any_thread_share_one_loop_and_arrive_in_order():
    async_to_sync(_sends)()


async def _sends():
    layer = get_channel_layer()
    group = f"publisher-{uuid.uuid4().hex[:8]}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    loops = []

    async def send(layer, n):
        loops.append(asyncio.get_running_loop())
        await layer.group_send(group, {"type": "x", "n": n})

    for n in range(3):  # from plain threads, as Celery's tasks and daphne's requests run
        await asyncio.to_thread(publisher.publish, layer, send, n)
    got = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(3)]
    assert got == [0, 1, 2]
    assert loops[0] is loops[1] is loops[2] and loops[0] is not asyncio.get_running_loop()
    await layer.group_discard(group, channel)


@pytest.mark.skipif(not isinstance(get_channel_layer(), RedisPubSubChannelLayer),
                    reason="the blocking send is the pub/sub layer's")
def test_a_threads_blocking_group_send_reaches_the_layers_subscribers_in_order(monkeypatch):
    def no_event_loop(*args):
        raise AssertionError("sent through an event loop")

    monkeypatch.setattr(publisher, "publish", no_event_loop)
    async_to_sync(_blocking_sends)()


async def _blocking_sends():
    layer = get_channel_layer()
    group = f"publisher-{uuid.uuid4().hex[:8]}"
    other = f"publisher-{uuid.uuid4().hex[:8]}"
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    await asyncio.to_thread(publisher.group_send_now, layer, other, {"type": "x", "n": -1})
    for n in range(3):
        await asyncio.to_thread(publisher.group_send_now, layer, group,
                                {"type": "x", "n": n, "text": "日本語 ♠"})
    got = [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(3)]
    assert got == [{"type": "x", "n": n, "text": "日本語 ♠"} for n in range(3)]
    await layer.group_discard(group, channel)


@pytest.fixture
def restartable_redis(tmp_path):
    port = servers.free_port()
    with servers.redis_server(port, tmp_path) as restart:
        yield f"redis://127.0.0.1:{port}/0", restart


def test_a_blocking_group_send_after_a_redis_restart_reconnects_and_arrives(
        restartable_redis):
    url, restart = restartable_redis
    config = {"hosts": [{"address": url, "socket_timeout": 15}], "prefix": "restart"}
    layer = RedisPubSubChannelLayer(**config)
    group = "after-restart"

    async def send_and_receive(n):
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        await asyncio.to_thread(publisher.group_send_now, layer, group, {"type": "x", "n": n},
                                config)
        got = await asyncio.wait_for(layer.receive(channel), 5)
        await layer.group_discard(group, channel)
        await layer.flush()
        return got["n"]

    assert async_to_sync(send_and_receive)(1) == 1
    restart()  # the blocking client's pooled connection is now dead
    assert async_to_sync(send_and_receive)(2) == 2


@pytest.mark.skipif(django_settings.BLAZE_INMEMORY, reason="needs Redis")
@pytest.mark.parametrize("layer_class", [RedisPubSubChannelLayer, RedisChannelLayer])
def test_a_requests_broadcast_does_not_wait_for_the_event_loop_that_serves_it(layer_class):
    """A request's thread once sent its broadcast through daphne's event loop and waited:
    with the loop busy that wait held one of the few request threads, and with the loop
    stopped (SIGTERM while moves were played) the thread waited for ever and the process
    never exited."""
    config = django_settings.CHANNEL_LAYERS["default"]["CONFIG"]
    layer = layer_class(hosts=config["hosts"], prefix=f"loop-{uuid.uuid4().hex[:8]}")
    async_to_sync(_broadcast_while_the_loop_is_blocked)(layer)


async def _broadcast_while_the_loop_is_blocked(layer):
    group = messages.game_group(7)
    channel = await layer.new_channel()
    await layer.group_add(group, channel)
    sent = threading.Event()

    def request_thread():  # as SyncChainASGIHandler runs a request: SyncToAsync's thread
        publisher.group_send_now(layer, group, messages.game_views(7, {1: "a"}, "s"))
        sent.set()

    pending = asyncio.ensure_future(SyncToAsync(request_thread, thread_sensitive=False)())
    await asyncio.sleep(0)  # the thread is on its way
    # the loop is busy (or stopped) meanwhile: the broadcast must not need it
    without_the_loop = sent.wait(timeout=30)
    await pending  # (a broadcast that needed the loop gets it now, and the test ends)
    assert without_the_loop, "the broadcast waited for the event loop"
    got = await asyncio.wait_for(layer.receive(channel), 5)
    assert got == {"type": "game.views", "seq": 7, "texts": {"1": "a"}, "spectator": "s"}
    await layer.group_discard(group, channel)


def test_a_plain_threads_send_on_the_in_memory_layer_wakes_its_waiting_reader():
    """The reader's loop has nothing else to do (no timer, no socket): only a send made on
    that loop wakes it. A send on a loop of the sender's own completed the reader's future
    from the wrong thread and the reader slept on (the browser tests' lost views)."""
    from lib.memory_layer import InMemoryLayer

    layer = InMemoryLayer()
    loop = asyncio.new_event_loop()
    reader = threading.Thread(target=loop.run_forever, daemon=True)
    reader.start()
    try:
        async def join_and_wait():
            channel = await layer.new_channel()
            await layer.group_add("table", channel)
            return channel

        channel = asyncio.run_coroutine_threadsafe(join_and_wait(), loop).result()
        waiting = asyncio.run_coroutine_threadsafe(layer.receive(channel), loop)
        sender = threading.Thread(target=publisher.group_send_now,
                                  args=(layer, "table", {"type": "x", "n": 1}, {}))
        sender.start()
        sender.join()
        assert waiting.result(timeout=30) == {"type": "x", "n": 1}
    finally:
        loop.call_soon_threadsafe(loop.stop)
        reader.join()
        loop.close()
