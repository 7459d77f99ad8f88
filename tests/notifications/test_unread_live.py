"""The unread count in the navigation, live: a player's open page holds a socket at
ws/notices/ (real ASGI application, real channel layer) and hears the new count when a
notice is made and when notices are marked read, one by one or all at once."""

import uuid

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.db import transaction
from django.test import Client

from accounts.services import api_token_create
from blaze_site.asgi import application
from notifications.models import Notification
from notifications.notifications import notify
from tests.conftest import make_user
from tests.web.refusals import close_code

pytestmark = pytest.mark.django_db(transaction=True)
HOST = [(b"host", b"localhost")]


@pytest.fixture(autouse=True)
def _own_channel_prefix(settings):
    layers = {k: dict(v) for k, v in django_settings.CHANNEL_LAYERS.items()}
    if "redis" in layers["default"]["BACKEND"].lower():
        config = dict(layers["default"].get("CONFIG", {}))
        config["prefix"] = f"test-{uuid.uuid4().hex[:8]}"
        layers["default"]["CONFIG"] = config
    settings.CHANNEL_LAYERS = layers


def _tell(user, n: int) -> int:
    with transaction.atomic():  # commits: the count goes out after it
        return notify(user=user, kind="tournament", key=f"news:{n}", text=f"News {n}.").pk


def test_the_count_reaches_an_open_page_when_notices_come_and_are_read(eager_tasks):
    async_to_sync(_live_count)()


async def _live_count():
    ann, bob = await database_sync_to_async(lambda: (make_user("ann"), make_user("bob")))()
    secret = await database_sync_to_async(lambda: api_token_create(user=ann, name="ws")[1])()
    auth = {"Authorization": f"Bearer {secret}"}
    ws = WebsocketCommunicator(application, f"/ws/notices/?token={secret}", headers=HOST)
    assert (await ws.connect())[0]
    assert await ws.receive_json_from(timeout=10) == {"type": "unread", "count": 0}

    first = await database_sync_to_async(_tell)(ann, 1)
    assert await ws.receive_json_from(timeout=10) == {"type": "unread", "count": 1}
    await database_sync_to_async(_tell)(ann, 2)
    assert await ws.receive_json_from(timeout=10) == {"type": "unread", "count": 2}
    await database_sync_to_async(_tell)(bob, 3)  # bob's news is not ann's count
    assert await ws.receive_nothing(timeout=0.5)

    client = Client()
    response = await database_sync_to_async(client.post)(
        f"/api/v1/notices/{first}/read", headers=auth)
    assert response.status_code == 204
    assert await ws.receive_json_from(timeout=10) == {"type": "unread", "count": 1}
    response = await database_sync_to_async(client.post)("/api/v1/notices/read", headers=auth)
    assert response.json() == {"marked": 1}
    assert await ws.receive_json_from(timeout=10) == {"type": "unread", "count": 0}
    assert await database_sync_to_async(
        lambda: Notification.objects.filter(user=ann, read=False).count())() == 0

    await ws.send_json_to({"type": "ping"})
    assert await ws.receive_json_from(timeout=10) == {"type": "pong"}
    await ws.disconnect()


def test_only_a_signed_in_player_may_hold_the_count_socket():
    async_to_sync(_refused)()


async def _refused():
    ws = WebsocketCommunicator(application, "/ws/notices/", headers=HOST)
    connected, code = await ws.connect()
    assert not connected  # refused at the handshake
    ws = WebsocketCommunicator(application, "/ws/notices/?token=blz_wrong", headers=HOST)
    assert await close_code(ws) == 4401  # accepted, then closed: the client reads why
