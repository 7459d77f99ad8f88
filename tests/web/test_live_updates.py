"""The live path: one view per seat per move, built by the writer; sockets only forward."""

import json
import random
import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import connection
from django.urls import reverse

from accounts.services import api_token_create, api_token_revoke
from blaze_site.asgi import application
from games import services
from games.live import broadcast, consumers, messages
from games.models import Game
from games.selectors import game_state, view_build
from tests.conftest import make_user
from tests.games_helpers import assert_view_hides_cards, random_legal_move
from tests.web.refusals import close_code

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings):
    # The Redis at 127.0.0.1 may be shared by other test runs: keep our groups apart.
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    if "redis" in layers["default"]["BACKEND"].lower():
        config = dict(layers["default"].get("CONFIG", {}))
        config["prefix"] = f"test-{uuid.uuid4().hex[:8]}"
        layers["default"]["CONFIG"] = config
    settings.CHANNEL_LAYERS = layers


def _four():
    users = [make_user(n) for n in ("ann", "bob", "cat", "dan")]
    game = services.game_create(creator=users[0], players=4)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    seats = {s.index: s.user for s in game.seats.select_related("user")}
    return game, seats


def _token(user) -> tuple[int, str]:
    token, secret = api_token_create(user=user, name="ws")
    return token.pk, secret


def _socket(game_id, secret=None, cookie=None):
    headers = [(b"origin", b"http://localhost"), (b"host", b"localhost")]
    if cookie:
        headers.append((b"cookie", cookie.encode()))
    query = f"?token={secret}" if secret else ""
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/{query}", headers=headers)


def _play_one(game_id, seats, rng):
    game = Game.objects.get(pk=game_id)
    seat = game.waiting_on[0]
    services.move_play(game_id=game_id, user=seats[seat], seq=game.seq,
                       move=random_legal_move(game, seat, rng))
    game.refresh_from_db()
    return game, game_state(game)


def test_every_seat_and_a_spectator_get_their_own_view_and_no_socket_reads_the_database(
        monkeypatch):
    async_to_sync(_every_seat_gets_its_view)(monkeypatch)


async def _every_seat_gets_its_view(monkeypatch):
    game, seats = await database_sync_to_async(_four)()
    reads = []
    real_view = consumers._view_for

    async def counted_view(game_id, user, language, mark=False):
        reads.append(user.pk)
        return await real_view(game_id, user, language, mark)

    monkeypatch.setattr(consumers, "_view_for", counted_view)
    watcher = await database_sync_to_async(make_user)("eve")
    people = [seats[i] for i in range(4)] + [watcher]
    sockets = []
    for user in people:
        ws = _socket(game.pk, (await database_sync_to_async(_token)(user))[1])
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=10))["seq"] == 0
        sockets.append(ws)
    assert len(reads) == 5  # one read each, on connect
    rng = random.Random(5)
    for expected in range(1, 13):
        game, state = await database_sync_to_async(_play_one)(game.pk, seats, rng)
        if game.status != Game.PLAYING:
            break
        for index, ws in enumerate(sockets):
            message = await ws.receive_json_from(timeout=10)
            seat = index if index < 4 else None
            assert message["type"] == "view" and message["seq"] == expected
            assert message["view"]["you"] == seat
            assert ("hand" in message["view"]) == (seat is not None)
            assert_view_hides_cards(message["view"], state, seat)
    assert len(reads) == 5  # the moves were delivered without a single read per socket
    for ws in sockets:
        assert await ws.receive_nothing(timeout=0.2)
        await ws.disconnect()


def test_a_move_post_makes_a_fixed_number_of_queries_and_a_broadcast_none(
        client, django_assert_num_queries, django_assert_max_num_queries):
    users = [make_user(n) for n in ("ann", "bob", "cat", "dan")]
    # 20 minutes: no deadline check is queued (those run in-process in tests)
    game = services.game_create(creator=users[0], players=4,
                                time_control={"kind": "live", "minutes": 20})
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    seat = game.waiting_on[0]
    secret = _token(game.seats.get(index=seat).user)[1]
    assert client.get(f"/api/v1/games/{game.pk}",
                      HTTP_AUTHORIZATION=f"Bearer {secret}").status_code == 200
    move = random_legal_move(game, seat, random.Random(1))
    # begin; lock the game and read its seats and their clocks (one statement); the clocks
    # that changed (the mover's and the next one's), the move and the game written in one
    # round trip on PostgreSQL; commit. The token is remembered from the GET. The views
    # are built once, with the clocks just written, the broadcast and the answer from them.
    with django_assert_max_num_queries(4 if connection.vendor == "postgresql" else 7):
        response = client.post(
            f"/api/v1/games/{game.pk}/moves", json.dumps({"seq": 0, "move": move}),
            content_type="application/json", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert response.status_code == 200, response.content
    assert response.json()["seq"] == 1 and response.json()["you"] == seat
    game.refresh_from_db()
    state = game_state(game)
    views = broadcast.views_build(game, list(game.seats.select_related("user")), state,
                                  {"clocks": None})
    with django_assert_num_queries(0):
        broadcast.views_send(views)

    # A client that missed a view reads the game: the game with its seats and users (one
    # statement, on PostgreSQL with the latest move, for its words in the log; elsewhere
    # that is one more) and the clocks.
    with django_assert_max_num_queries(2 if connection.vendor == "postgresql" else 3):
        again = client.get(f"/api/v1/games/{game.pk}", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert again.status_code == 200 and again.json()["seq"] == 1
    assert again.json()["log"] == response.json()["log"] != []


def test_a_spectator_who_takes_a_seat_gets_that_seat_and_one_who_leaves_watches_again():
    async_to_sync(_seat_taken_and_left)()


async def _seat_taken_and_left():
    ann, bob = [await database_sync_to_async(make_user)(n) for n in ("ann", "bob")]
    game = await database_sync_to_async(services.game_create)(creator=ann, players=4)
    ws = _socket(game.pk, (await database_sync_to_async(_token)(bob))[1])
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=10))["view"]["you"] is None
    await database_sync_to_async(services.game_join)(game_id=game.pk, user=bob)
    seated = await ws.receive_json_from(timeout=10)
    assert seated["view"]["you"] == 1 and seated["view"]["hand"] == []
    assert await ws.receive_nothing(timeout=0.3)  # the spectator copy is not for him
    await database_sync_to_async(services.game_leave)(game_id=game.pk, user=bob)
    left = await ws.receive_json_from(timeout=10)
    assert left["view"]["you"] is None and "hand" not in left["view"]
    await ws.disconnect()


def test_binary_and_garbage_frames_get_an_error_and_the_socket_stays_open():
    async_to_sync(_garbage)()


async def _garbage():
    game, seats = await database_sync_to_async(_four)()
    ws = _socket(game.pk, (await database_sync_to_async(_token)(seats[0]))[1])
    assert (await ws.connect())[0]
    await ws.receive_json_from(timeout=10)
    for frame in (b"\x00\xff\x10binary", "{not json", "[1, 2]", '"sync"', "[" * 5000):
        if isinstance(frame, bytes):
            await ws.send_to(bytes_data=frame)
        else:
            await ws.send_to(text_data=frame)
        answer = await ws.receive_json_from(timeout=10)
        assert answer["type"] == "error" and answer["error"]
    await ws.send_json_to({"type": "ping"})
    assert (await ws.receive_json_from(timeout=10)) == {"type": "pong"}
    await ws.disconnect()


def test_a_client_flooding_sync_is_throttled_per_connection(monkeypatch):
    monkeypatch.setattr(messages, "RATE_PER_SECOND", 0.001)  # no refill within the test
    async_to_sync(_flood)()


async def _flood():
    game, seats = await database_sync_to_async(_four)()
    flooder = _socket(game.pk, (await database_sync_to_async(_token)(seats[0]))[1])
    other = _socket(game.pk, (await database_sync_to_async(_token)(seats[1]))[1])
    for ws in (flooder, other):
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)
    sent = messages.RATE_BURST + 15
    for _ in range(sent):
        await flooder.send_json_to({"type": "sync"})
    answers = [await flooder.receive_json_from(timeout=10) for _ in range(sent)]
    kinds = [a["type"] for a in answers]
    assert kinds.count("view") == messages.RATE_BURST
    assert kinds.count("error") == 15 and "too many" in answers[-1]["error"]
    await other.send_json_to({"type": "sync"})  # the limit is per connection
    assert (await other.receive_json_from(timeout=10))["type"] == "view"
    for ws in (flooder, other):
        await ws.disconnect()


def test_revoking_a_token_closes_the_sockets_opened_with_it():
    async_to_sync(_revoke)()


async def _revoke():
    game, seats = await database_sync_to_async(_four)()
    token_id, secret = await database_sync_to_async(_token)(seats[0])
    kept = _socket(game.pk, (await database_sync_to_async(_token)(seats[0]))[1])
    doomed = _socket(game.pk, secret)
    for ws in (kept, doomed):
        assert (await ws.connect())[0]
        await ws.receive_json_from(timeout=10)
    assert await database_sync_to_async(api_token_revoke)(user=seats[0], token_id=token_id)
    closed = await doomed.receive_output(timeout=10)
    assert closed == {"type": "websocket.close", "code": consumers.CLOSE_UNAUTHORIZED}
    await kept.send_json_to({"type": "ping"})
    assert (await kept.receive_json_from(timeout=10))["type"] == "pong"
    await kept.disconnect()
    again = _socket(game.pk, secret)
    assert await close_code(again) == consumers.CLOSE_UNAUTHORIZED


def test_logging_out_closes_the_sockets_of_that_session(client, fast_passwords):
    game, seats = _four()
    client.force_login(seats[0])
    cookie = f"{django_settings.SESSION_COOKIE_NAME}={client.cookies['sessionid'].value}"

    async def scenario():
        ws = _socket(game.pk, cookie=cookie)
        assert (await ws.connect())[0]
        assert (await ws.receive_json_from(timeout=10))["view"]["you"] == 0
        response = await database_sync_to_async(client.post)(reverse("account_logout"))
        assert response.status_code in (200, 302)
        return await ws.receive_output(timeout=10)

    assert async_to_sync(scenario)() == {"type": "websocket.close",
                                         "code": consumers.CLOSE_UNAUTHORIZED}


def test_a_changes_views_built_together_are_each_readers_own_view_built_alone():
    """The broadcast builds what every reader sees alike once (games.selectors
    view_build's memos): each view must still be exactly the one its reader gets alone,
    holding no card of another hand."""
    game, seats = _four()
    rng = random.Random(5)
    for _ in range(12):  # into the play, with cards on the table and in the log
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=seats[seat], seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game.refresh_from_db()
    seat_rows = list(game.seats.select_related("user"))
    state = game_state(game)
    together = broadcast.views_build(game, seat_rows, state, {"clocks": None})
    for index, user in seats.items():
        alone = view_build(game, seat_rows, state, index, {"clocks": None},
                           viewer_id=user.pk)
        mine = together.by_user[user.pk]
        assert json.loads(together.encoded(mine)) == json.loads(json.dumps(alone))
        assert mine["you"] == index and mine["hand"] == sorted(state.hands[index])
        assert_view_hides_cards(mine, state, index)
    spectator = view_build(game, seat_rows, state, None, {"clocks": None})
    assert together.spectator == spectator and "hand" not in spectator
    assert_view_hides_cards(together.spectator, state, None)
