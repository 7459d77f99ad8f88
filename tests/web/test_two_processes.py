"""Two web processes (uvicorn or daphne) over one PostgreSQL and one Redis act as one site."""

import asyncio
import base64
import json
import os
import random
import socket
import time
import uuid

import pytest
from django.conf import settings

from accounts.services import api_token_create, api_token_revoke
from games import services
from games.bots import choose_move
from games.models import Game
from tests import servers
from tests.conftest import make_user

aiohttp = pytest.importorskip("aiohttp")

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.BLAZE_INMEMORY, reason="needs Redis: processes meet there"),
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="needs PostgreSQL: SQLite's test database is this process's"),
]


@pytest.fixture(params=servers.WEB_SERVERS)
def two_processes(request, tmp_path, settings):
    """Two web processes (of each web server the site runs with, in turn) sharing this
    run's test database, one Redis prefix for the layer and the cache with this process
    (what it sends to the layer reaches their sockets, what it changes in the cache they
    see), as production runs them; yields (proc, url, log) of each."""
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    layer = dict(settings.CHANNEL_LAYERS["default"])
    layer["CONFIG"] = {**layer["CONFIG"], "prefix": prefix}
    settings.CHANNEL_LAYERS = {"default": layer}
    settings.CACHES = {"default": {"BACKEND": "lib.redis_cache.SharedPoolRedisCache",
                                   "LOCATION": settings.REDIS_URL, "KEY_PREFIX": prefix}}
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "blaze_site.settings",
           "DATABASE_URL": servers.database_url(settings.DATABASES["default"]),
           "BLAZE_INMEMORY": "0", "CHANNEL_LAYER_PREFIX": prefix,
           "CACHE_URL": settings.REDIS_URL,
           "CELERY_TASK_ALWAYS_EAGER": "1", "DEBUG": "1", "BLAZE_ENV": "development",
           "DB_POOL_MAX_SIZE": "2"}
    logs = [tmp_path / f"web-{name}.log" for name in "ab"]
    server = request.param
    with servers.web(env, logs[0], server) as a, servers.web(env, logs[1], server) as b:
        yield [(a.proc, a.url, logs[0]), (b.proc, b.url, logs[1])]
    text = "".join(log.read_text() for log in logs)
    assert "Traceback" not in text, text[-3000:]


def _game():
    users = [make_user(n) for n in ("ann", "bob", "cat", "dan")]
    game = services.game_create(creator=users[0], players=4)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    by_seat = {s.index: s.user for s in game.seats.select_related("user")}
    return game.pk, [api_token_create(user=by_seat[k], name="t") for k in range(4)]


class Table:
    """Four sockets, each holding the newest view its seat was sent."""

    def __init__(self, session, game_id, tokens):
        self.session, self.game_id, self.tokens = session, game_id, tokens
        self.views = [None] * 4
        self.arrived = asyncio.Event()

    async def listen(self, k: int, url: str):
        ws_url = url.replace("http", "ws", 1) + f"/ws/games/{self.game_id}/?token={self.tokens[k]}"
        async with self.session.ws_connect(ws_url) as ws:
            async for msg in ws:
                view = msg.json()["view"]
                if self.views[k] is None or view["seq"] >= self.views[k]["seq"]:
                    self.views[k] = view
                    self.arrived.set()

    async def all_at(self, seq: int):
        while not all(v is not None and v["seq"] >= seq for v in self.views):
            self.arrived.clear()
            await asyncio.wait_for(self.arrived.wait(), 30)

    async def play(self, url: str, rng) -> int:
        """One move by the seat the game waits on, posted to `url`; the new seq."""
        view = self.views[0]
        seat = view["waiting_on"][0]
        mine = self.views[seat]
        move = {k: v for k, v in choose_move(mine, seat, rng, "random").items() if k != "seat"}
        async with self.session.post(
                f"{url}/api/v1/games/{self.game_id}/moves", json={"seq": mine["seq"], "move": move},
                headers={"Authorization": f"Bearer {self.tokens[seat]}"}) as r:
            assert r.status == 200, await r.text()
            return (await r.json())["seq"]


def test_moves_posted_to_one_process_reach_sockets_on_the_other_and_survive_its_death(
        two_processes):
    game_id, tokens = _game()
    tokens = [secret for _, secret in tokens]
    (proc_a, url_a, _), (proc_b, url_b, _) = two_processes

    async def scenario():
        async with aiohttp.ClientSession() as session:
            table = Table(session, game_id, tokens)
            # seats 0-2 listen on A, seat 3 on B
            listeners = [asyncio.create_task(table.listen(k, url_a if k < 3 else url_b))
                         for k in range(4)]
            await table.all_at(0)
            rng = random.Random(4)
            seq = 0
            for url in [url_b, url_a] * 4:  # every move crosses from one process to the other
                seq = await table.play(url, rng)
                await table.all_at(seq)
                assert all(v["you"] == k for k, v in enumerate(table.views))
            # A never applied these moves: it reads the committed state, never a stale one
            async with session.get(f"{url_a}/api/v1/games/{game_id}",
                                   headers={"Authorization": f"Bearer {tokens[0]}"}) as r:
                assert (await r.json())["seq"] == seq
            # B dies mid-game: the game goes on through A
            proc_b.kill()
            proc_b.wait()
            listeners[3].cancel()
            table.views[3] = None
            listeners[3] = asyncio.create_task(table.listen(3, url_a))  # the client reconnects
            await table.all_at(seq)  # and resyncs: the view it gets on connect
            for _ in range(4):
                seq = await table.play(url_a, rng)
                await table.all_at(seq)
            for task in listeners:
                task.cancel()
            await asyncio.gather(*listeners, return_exceptions=True)

    asyncio.run(scenario())


def _raw_socket(url: str, path: str) -> socket.socket:
    """A WebSocket client that only reads when told to, and never answers a close."""
    host, port = url.removeprefix("http://").split(":")
    sock = socket.create_connection((host, int(port)), timeout=30)
    key = base64.b64encode(os.urandom(16)).decode()
    sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                 f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                 "Sec-WebSocket-Version: 13\r\n\r\n".encode())
    head = b""
    while not head.endswith(b"\r\n\r\n"):  # byte by byte: the frames stay unread
        head += sock.recv(1) or pytest.fail(f"no handshake answer: {head!r}")
    assert head.startswith(b"HTTP/1.1 101"), head
    return sock


def _frame(sock: socket.socket) -> tuple[int, bytes] | None:
    """The next frame from the server (opcode, payload), None once the TCP closed (an
    unanswered close ends with a reset)."""
    def exactly(n):
        data = b""
        while len(data) < n:
            try:
                chunk = sock.recv(n - len(data))
            except ConnectionResetError:
                chunk = b""
            if not chunk:
                return None
            data += chunk
        return data

    head = exactly(2)
    if head is None:
        return None
    size = head[1] & 0x7F
    if size >= 126:
        size = int.from_bytes(exactly(2 if size == 126 else 8), "big")
    return head[0] & 0x0F, exactly(size)


def chosen_move(url: str, game_id: int, token: str, seat: int, rng) -> tuple[int, dict]:
    """The seat's view's seq and a move for it (RECORD.md's object, no "seat")."""
    view = servers.http_json("GET", f"{url}/api/v1/games/{game_id}", token)
    move = choose_move(view, seat, rng, "random")
    return view["seq"], {k: v for k, v in move.items() if k != "seat"}


def test_a_view_for_a_socket_the_server_is_closing_is_dropped_without_a_traceback(
        two_processes):
    """The server closes a socket (its token revoked) and the next move's view reaches
    the consumer before the client answered the close: daphne cannot send it any more.
    The view is dropped and the consumer ends with the disconnect; before, it died with
    "Exception inside application: Attempt to send on a closed protocol"."""
    game_id, tokens = _game()
    (_, url, log), _ = two_processes
    sock = _raw_socket(url, f"/ws/games/{game_id}/?token={tokens[0][1]}")
    rng = random.Random(1)

    def chosen(seat):
        return chosen_move(url, game_id, tokens[seat][1], seat, rng)

    while True:
        opcode, text = _frame(sock)
        assert opcode == 1 and json.loads(text)["type"] == "view"  # in the game's group
        waiting = [k for k in json.loads(text)["view"]["waiting_on"] if k != 0]
        if waiting:
            break
        seq, move = chosen(0)  # seat 0 plays until another seat is awaited
        servers.http_json("POST", f"{url}/api/v1/games/{game_id}/moves", tokens[0][1],
              {"seq": seq, "move": move})
    # that seat chooses its move before the revocation, so its view reaches the closing
    # socket within autobahn's 1 s wait for the client's answer
    seat = waiting[0]
    seq, move = chosen(seat)
    token, _ = tokens[0]
    assert api_token_revoke(user=token.user, token_id=token.pk)
    answer = servers.http_json("POST", f"{url}/api/v1/games/{game_id}/moves", tokens[seat][1],
                   {"seq": seq, "move": move})
    assert answer["seq"] == seq + 1
    frames = []
    while (frame := _frame(sock)) is not None:  # the close, then autobahn drops the TCP
        frames.append(frame)
    sock.close()
    assert frames and frames[-1][0] == 8 and int.from_bytes(frames[-1][1][:2], "big") == 4401
    # daphne reports an application's death on its next check, once a second
    deadline = time.monotonic() + 3
    while time.monotonic() < deadline:
        text = log.read_text()
        assert "Exception inside application" not in text, text[-3000:]
        time.sleep(0.2)


def test_a_token_revoked_here_is_refused_by_both_processes_that_remembered_it(two_processes):
    token, secret = api_token_create(user=make_user("ann"), name="t")
    urls = [url for _, url, _ in two_processes]
    for url in urls:  # each remembers it
        for _ in range(2):
            assert servers.http_json("GET", f"{url}/api/v1/games", secret) is not None
    assert api_token_revoke(user=token.user, token_id=token.pk)
    for url in urls:
        servers.until_refused(url, secret)


def test_a_spectator_on_one_process_sees_every_move_posted_to_the_other(two_processes):
    game_id, tokens = _game()
    tokens = [secret for _, secret in tokens]
    (_, url_a, _), (_, url_b, _) = two_processes
    watcher = api_token_create(user=make_user("eve"), name="t")[1]

    async def scenario():
        async with aiohttp.ClientSession() as session:
            table = Table(session, game_id, tokens)
            players = [asyncio.create_task(table.listen(k, url_a)) for k in range(4)]
            await table.all_at(0)
            seen = []
            ws_url = url_b.replace("http", "ws", 1) + f"/ws/games/{game_id}/?token={watcher}"
            async with session.ws_connect(ws_url) as ws:
                seen.append((await ws.receive_json(timeout=30))["view"])
                rng = random.Random(6)
                for _ in range(6):  # posted to A, which learns of the watcher from the row
                    seq = await table.play(url_a, rng)
                    await table.all_at(seq)
                    seen.append((await ws.receive_json(timeout=30))["view"])
                    assert seen[-1]["seq"] == seq
            for task in players:
                task.cancel()
            await asyncio.gather(*players, return_exceptions=True)
            return seen

    seen = asyncio.run(scenario())
    assert [v["seq"] for v in seen] == list(range(7))
    assert all(v["you"] is None and "hand" not in v for v in seen)
    assert Game.objects.get(pk=game_id).watched_until is not None
