"""Bad input at a socket's door or in its frames gets an answer, never a server error:
an empty frame, a path with no socket, an Origin that is not a URL; and a program's
token in an Authorization header needs no Origin, as one in ?token= does not."""


import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator

from accounts.services import api_token_create
from blaze_site.asgi import application
from games import services
from tests.conftest import make_user
from tests.web.refusals import close_code

pytestmark = [pytest.mark.django_db(transaction=True),
              pytest.mark.usefixtures("own_channel_prefix")]
BROWSER = [(b"origin", b"http://localhost"), (b"host", b"localhost")]


def _game_and_token():
    users = [make_user(n) for n in ("ann", "bob", "cat")]
    game = services.game_create(creator=users[0], players=3)
    return game, api_token_create(user=users[0], name="ws")[1]


def test_an_empty_frame_is_answered_and_the_socket_stays_open():
    async def scenario():
        game, secret = await database_sync_to_async(_game_and_token)()
        for path in (f"/ws/games/{game.pk}/", f"/ws/games/{game.pk}/?token={secret}"):
            ws = WebsocketCommunicator(application, path, headers=BROWSER)
            assert (await ws.connect())[0]
            await ws.receive_json_from(timeout=10)  # the view
            await ws.send_input({"type": "websocket.receive", "text": ""})
            assert (await ws.receive_json_from(timeout=10))["type"] == "error"
            await ws.send_json_to({"type": "ping"})
            assert (await ws.receive_json_from(timeout=10))["type"] == "pong"
            await ws.disconnect()
        notices = WebsocketCommunicator(application, f"/ws/notices/?token={secret}",
                                        headers=BROWSER)
        assert (await notices.connect())[0]
        await notices.receive_json_from(timeout=10)  # the unread count
        await notices.send_input({"type": "websocket.receive", "text": ""})
        assert (await notices.receive_json_from(timeout=10))["type"] == "error"
        await notices.send_json_to({"type": "ping"})
        assert (await notices.receive_json_from(timeout=10))["type"] == "pong"
        await notices.disconnect()

    async_to_sync(scenario)()


@pytest.mark.parametrize("path", ["/ws/nope/", "/ws/", "/ws/games/abc/", "/ws/games/-1/",
                                  "/ws/games/1", "/play/", "/ws/notices/x/"])
def test_a_path_with_no_socket_refuses_the_handshake(path):
    async def scenario():
        ws = WebsocketCommunicator(application, path, headers=BROWSER)
        connected, _code = await ws.connect()
        assert connected is False

    async_to_sync(scenario)()


@pytest.mark.parametrize("origin", [b"http://[::1", b"http://127.0.0.1]", b"http://[zz]/"])
def test_an_origin_that_is_not_a_url_refuses_the_handshake(origin):
    async def scenario():
        game, secret = await database_sync_to_async(_game_and_token)()
        for query in ("", f"?token={secret}"):
            ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/{query}",
                                       headers=[(b"origin", origin), (b"host", b"localhost")])
            connected, _code = await ws.connect()
            assert connected is False

    async_to_sync(scenario)()


def test_a_program_with_a_token_header_needs_no_origin_and_a_bad_one_is_refused():
    async def scenario():
        game, secret = await database_sync_to_async(_game_and_token)()
        ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[
            (b"host", b"localhost"), (b"authorization", f"Bearer {secret}".encode())])
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=10))["view"]["you"] == 0
        await ws.disconnect()
        wrong = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[
            (b"host", b"localhost"), (b"authorization", b"Bearer blz_wrong")])
        assert await close_code(wrong) == 4401
        for header in (b"Bearer ", b"Basic YTpi", b"x"):  # no token: no Origin, no entry
            none = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[
                (b"host", b"localhost"), (b"authorization", header)])
            assert (await none.connect())[0] is False, header

    async_to_sync(scenario)()


def test_the_notices_socket_answers_every_frame_it_does_not_read_and_limits_them():
    async def scenario():
        _game, secret = await database_sync_to_async(_game_and_token)()
        ws = WebsocketCommunicator(application, f"/ws/notices/?token={secret}",
                                   headers=BROWSER)
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)  # the unread count
        await ws.send_to(bytes_data=b"\x00")
        assert "binary" in (await ws.receive_json_from(timeout=10))["error"]
        for text in ("not json", "[1, 2]", "{}", '{"type": "nope"}'):
            await ws.send_to(text_data=text)
            assert "unknown message" in (await ws.receive_json_from(timeout=10))["error"]
        answers = []
        for _ in range(30):  # more than a burst at once
            await ws.send_json_to({"type": "ping"})
            answers.append(await ws.receive_json_from(timeout=10))
        assert any("too many messages" in a.get("error", "") for a in answers)
        await ws.disconnect()

    async_to_sync(scenario)()
