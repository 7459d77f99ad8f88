"""A socket's two sources (its client's frames, the channel layer) are read by one reader
each for the socket's life; their messages are dispatched one at a time, each source's in
order, as channels' own loop does, without a new task for every message."""

import asyncio

import pytest
from channels.consumer import AsyncConsumer
from channels.exceptions import StopConsumer
from channels.layers import InMemoryChannelLayer, channel_layers

from games.live.consumers import GameConsumer
from games.live.dispatch_loop import ReaderPerSource, dispatch_each
from notifications.consumers import NoticeConsumer


def _source(queue: asyncio.Queue):
    return queue.get


def test_messages_of_two_sources_go_one_at_a_time_each_source_in_order():
    async def run():
        frames, layer = asyncio.Queue(), asyncio.Queue()
        for i in range(30):
            frames.put_nowait(("frame", i))
            layer.put_nowait(("layer", i))
        seen, busy, tasks = [], [False], set()

        async def dispatch(message):
            assert not busy[0], "two messages dispatched at once"
            busy[0] = True
            tasks.update(asyncio.all_tasks())
            await asyncio.sleep(0)  # a send that yields to the loop
            seen.append(message)
            busy[0] = False
            if len(seen) == 60:
                raise StopConsumer

        with pytest.raises(StopConsumer):
            await dispatch_each([_source(frames), _source(layer)], dispatch)
        return seen, tasks

    seen, tasks = asyncio.run(run())
    assert [i for kind, i in seen if kind == "frame"] == list(range(30))
    assert [i for kind, i in seen if kind == "layer"] == list(range(30))
    # the test's own task and the two readers: no task made per message
    assert len(tasks) == 3


def test_a_failing_dispatch_ends_every_reader_and_is_raised():
    async def run():
        frames = asyncio.Queue()
        frames.put_nowait("boom")
        quiet = asyncio.Queue()  # never sends: its reader waits until cancelled

        async def dispatch(message):
            raise ValueError(message)

        with pytest.raises(ValueError, match="boom"):
            await dispatch_each([_source(frames), _source(quiet)], dispatch)
        await asyncio.sleep(0)
        return [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]

    assert asyncio.run(run()) == []


def _attributes_after_call(base) -> dict:
    """What `__call__` of a consumer on `base` sets before its first dispatch."""

    class Probe(base):
        channel_layer_alias = "dispatch-loop-contract"

        async def dispatch(self, message):
            self.first = message
            raise StopConsumer

    async def run():
        channel_layers.set("dispatch-loop-contract", InMemoryChannelLayer())
        probe = Probe()

        async def receive():
            return {"type": "websocket.connect"}

        async def send(message):
            pass

        await probe({"type": "websocket"}, receive, send)
        return {name: type(value).__name__ for name, value in vars(probe).items()}

    return asyncio.run(run())


def test_our_call_sets_up_a_consumer_as_channels_own_does():
    # docs/upgrades.md: ReaderPerSource repeats AsyncConsumer.__call__ but for its loop
    class Ours(ReaderPerSource, AsyncConsumer):
        pass

    assert _attributes_after_call(Ours) == _attributes_after_call(AsyncConsumer)
    assert GameConsumer.__call__ is ReaderPerSource.__call__
    assert NoticeConsumer.__call__ is ReaderPerSource.__call__
