import asyncio
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings

from blaze_site.channel_layers import WaitingPoolRedisChannelLayer


def test_channel_layer_delivers_a_group_message():
    layer = get_channel_layer()
    expected = "InMemory" if settings.BLAZE_INMEMORY else {
        "pubsub": "RedisPubSubChannelLayer", "lists": "WaitingPoolRedisChannelLayer"}[
        settings.CHANNEL_LAYER_KIND]
    assert expected in type(layer).__name__

    async def roundtrip():
        channel = await layer.new_channel()
        await layer.group_add("game-test", channel)
        await layer.group_send("game-test", {"type": "view", "seq": 7})
        message = await layer.receive(channel)
        await layer.group_discard("game-test", channel)
        return message

    assert async_to_sync(roundtrip)() == {"type": "view", "seq": 7}


@pytest.mark.skipif(settings.BLAZE_INMEMORY, reason="needs Redis")
def test_the_list_layer_takes_a_wave_of_sockets_leaving_their_groups_at_once():
    """300 sockets of a process closing together each leave their groups at once: more
    than redis-py's pool of 100 connections, which raised "Too many connections" and
    killed those consumers; the layer's pool waits for a free connection instead."""
    layer = WaitingPoolRedisChannelLayer(
        hosts=[{"address": settings.REDIS_URL}], prefix=f"test-{uuid.uuid4().hex[:8]}")

    async def wave():
        channels = [await layer.new_channel() for _ in range(300)]
        await asyncio.gather(*(layer.group_add("wave", c) for c in channels))
        await asyncio.gather(*(layer.group_discard("wave", c) for c in channels))
        async with layer.connection(0) as connection:
            left = await connection.zcard(layer._group_key("wave"))
        await layer.flush()
        return left

    assert async_to_sync(wave)() == 0
