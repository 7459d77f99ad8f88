"""Django's synchronous code runs for at most WEB_SYNC_THREADS requests of a process at
once; the others wait in the event loop, and a slow upload never holds a place."""

import asyncio

from blaze_site.sync_gate import SyncGate


class Busy:
    """An ASGI app that answers after a short wait, counting the requests inside it."""

    def __init__(self):
        self.inside = 0
        self.most = 0
        self.bodies = []

    async def __call__(self, scope, receive, send):
        self.inside += 1
        self.most = max(self.most, self.inside)
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        self.bodies.append(body)
        await asyncio.sleep(0.01)
        self.inside -= 1
        await send({"type": "http.response.start", "status": 200, "headers": []})
        await send({"type": "http.response.body", "body": body})


def _request(gate, parts, sent):
    queue = asyncio.Queue()
    for i, part in enumerate(parts):
        queue.put_nowait({"type": "http.request", "body": part,
                          "more_body": i < len(parts) - 1})

    async def send(message):
        sent.append(message)

    return gate({"type": "http"}, queue.get, send), queue


def test_at_most_the_limit_run_at_once_and_every_request_is_answered_with_its_body():
    app = Busy()
    gate = SyncGate(app, limit=2)
    sent = []

    async def main():
        await asyncio.gather(*(_request(gate, [b"a%d" % i, b"-end"], sent)[0]
                               for i in range(8)))

    asyncio.run(main())
    assert app.most == 2
    assert sorted(app.bodies) == sorted(b"a%d-end" % i for i in range(8))
    assert sum(m["type"] == "http.response.start" for m in sent) == 8


def test_a_request_whose_body_is_still_arriving_holds_no_place():
    app = Busy()
    gate = SyncGate(app, limit=1)
    sent = []

    async def main():
        # the first request sends half its body, then nothing for a while
        slow, slow_queue = _request(gate, [b"half"], [])
        slow_queue.get_nowait()
        slow_queue.put_nowait({"type": "http.request", "body": b"half", "more_body": True})
        slow_task = asyncio.create_task(slow)
        await asyncio.sleep(0)
        others = [_request(gate, [b"x%d" % i], sent)[0] for i in range(3)]
        await asyncio.wait_for(asyncio.gather(*others), 5)
        assert app.bodies == [b"x0", b"x1", b"x2"]  # answered while the upload waits
        slow_queue.put_nowait({"type": "http.request", "body": b"-rest", "more_body": False})
        await asyncio.wait_for(slow_task, 5)

    asyncio.run(main())
    assert app.bodies[-1] == b"half-rest"


def test_websockets_and_a_limit_of_zero_pass_straight_through():
    app = Busy()
    seen = []

    async def inner(scope, receive, send):
        seen.append(scope["type"])

    async def main():
        await SyncGate(inner, limit=1)({"type": "websocket"}, None, None)
        await asyncio.gather(*(_request(SyncGate(app, limit=0), [b"b"], [])[0]
                               for _ in range(4)))

    asyncio.run(main())
    assert seen == ["websocket"] and app.most == 4
