from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from django.conf import settings


def test_channel_layer_delivers_a_group_message():
    layer = get_channel_layer()
    expected = "InMemory" if settings.BLAZE_INMEMORY else {
        "pubsub": "RedisPubSubChannelLayer", "lists": "RedisChannelLayer"}[
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
