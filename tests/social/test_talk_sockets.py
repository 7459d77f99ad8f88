"""Table talk over real sockets: two players and a spectator, each in their language,
on a web server of its own (tests.servers), the messages POSTed to it like a browser's."""

import asyncio
import os
import uuid

import pytest
from django.conf import settings

from accounts.services import api_token_create
from tests import servers
from tests.conftest import make_user
from tests.social.helpers import table

aiohttp = pytest.importorskip("aiohttp")

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(settings.BLAZE_INMEMORY, reason="needs Redis: the web process's layer"),
    pytest.mark.skipif("postgresql" not in settings.DATABASES["default"]["ENGINE"],
                       reason="needs PostgreSQL: the web process reads this run's test database"),
]


@pytest.fixture
def site(tmp_path, settings):
    prefix = f"test-{uuid.uuid4().hex[:8]}"
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "blaze_site.settings",
           "DATABASE_URL": servers.database_url(settings.DATABASES["default"]),
           "BLAZE_INMEMORY": "0", "CHANNEL_LAYER_PREFIX": prefix,
           "CELERY_TASK_ALWAYS_EAGER": "1", "DEBUG": "1", "BLAZE_ENV": "development",
           "DB_POOL_MAX_SIZE": "2", "BOT_PAUSE_SECONDS": "0"}
    log = tmp_path / "web.log"
    with servers.web(env, log) as server:
        yield server.url
    assert "Traceback" not in log.read_text(), log.read_text()[-3000:]


class Reader:
    """One socket, keeping the chat frames it was sent."""

    def __init__(self, session, url, game_id, token, headers=None):
        self.session, self.token, self.headers = session, token, headers or {}
        query = f"?token={token}" if token else ""
        self.ws_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}/{query}"
        self.url, self.game_id = url, game_id
        self.chats: asyncio.Queue = asyncio.Queue()
        self.ready = asyncio.Event()

    async def listen(self):
        async with self.session.ws_connect(self.ws_url, headers=self.headers) as ws:
            async for msg in ws:
                frame = msg.json()
                if frame["type"] == "view":
                    self.ready.set()
                elif frame["type"] == "chat":
                    await self.chats.put(frame)

    async def next(self) -> dict:
        return await asyncio.wait_for(self.chats.get(), 30)

    async def say(self, **body) -> dict:
        async with self.session.post(f"{self.url}/api/v1/games/{self.game_id}/chat", json=body,
                                     headers={"Authorization": f"Bearer {self.token}"}) as r:
            assert r.status == 201, await r.text()
            return await r.json()

    async def api(self, method: str, path: str, body=None) -> int:
        async with self.session.request(method, f"{self.url}/api/v1{path}", json=body,
                                        headers={"Authorization": f"Bearer {self.token}"}) as r:
            return r.status


def _people():
    ann = make_user("ann", language="en")
    bob = make_user("bob", language="ja")
    eve = make_user("eve", language="es")
    game = table(ann, [bob], players=3, bots=["basic"])
    tokens = [api_token_create(user=u, name="ws")[1] for u in (ann, bob, eve)]
    return game.pk, tokens


def test_two_players_and_a_spectator_talk_each_in_their_language_and_channel(site):
    game_id, tokens = _people()

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ann, bob, eve = (Reader(session, site, game_id, t) for t in tokens)
            tasks = [asyncio.create_task(r.listen()) for r in (ann, bob, eve)]
            for r in (ann, bob, eve):
                await asyncio.wait_for(r.ready.wait(), 30)

            # a phrase reaches each player in their own language; not the spectator
            await ann.say(phrase="good_luck")
            got_ann, got_bob = await ann.next(), await bob.next()
            assert got_ann["text"] == "Good luck!" and got_bob["text"] == "頑張って！"
            assert got_bob["phrase"] == "good_luck" and got_bob["from"] == "ann"
            assert got_bob["seq"] == got_ann["seq"] == 1 and got_bob["seat"] is not None

            # the spectator's phrase reaches spectators only, in Spanish
            await eve.say(phrase="thanks")
            got_eve = await eve.next()
            assert got_eve["text"] == "¡Gracias!" and got_eve["seat"] is None

            # free text arrives as the very characters written: plain text, never markup
            said = "<script>alert(1)</script> <a href='x'>see https://example.com</a>"
            await ann.say(text=said)
            assert (await bob.next())["text"] == said
            assert (await ann.next())["text"] == said

            # bob turns free text off: the text never comes, the phrase after it does
            assert await bob.api("PUT", "/chat/settings", {"free_text": False}) == 200
            await ann.say(text="can you read this?")
            await ann.say(phrase="oops")
            got = await bob.next()
            assert (got["phrase"], got["text"]) == ("oops", "おっと！")

            # bob blocks ann: her talk never reaches him; his own still does
            assert await bob.api("POST", "/blocks/ann") == 204
            await ann.say(phrase="sorry")
            await bob.say(phrase="bye")
            assert (await bob.next())["phrase"] == "bye"
            for _ in range(4):  # ann heard: her text, her oops, her sorry, bob's bye
                last = await ann.next()
            assert last["phrase"] == "bye" and last["text"] == "Bye!"

            # the spectator heard nothing of the players' channel all along
            assert eve.chats.empty()
            for t in tasks:
                t.cancel()

    asyncio.run(scenario())


def _spectators():
    ann = make_user("ann")
    game = table(ann, [make_user("bob")], players=3, bots=["basic"])
    eve, cat, dan = (make_user(n, language=lang) for n, lang in
                     (("eve", "en"), ("cat", "ja"), ("dan", "en")))
    from social.talk import free_text_set

    free_text_set(user=dan, on=False)
    return game.pk, [api_token_create(user=u, name="ws")[1] for u in (ann, eve, cat, dan)]


def test_spectators_read_in_their_language_and_by_their_choice_and_players_hear_none(site):
    game_id, tokens = _spectators()

    async def scenario():
        async with aiohttp.ClientSession() as session:
            ann, eve, cat, dan = (Reader(session, site, game_id, t) for t in tokens)
            # a visitor without an account, whose browser asks for Spanish
            visitor = Reader(session, site, game_id, None,
                             {"Accept-Language": "es", "Origin": site})
            readers = (ann, eve, cat, dan, visitor)
            tasks = [asyncio.create_task(r.listen()) for r in readers]
            for i, r in enumerate(readers):
                try:
                    await asyncio.wait_for(r.ready.wait(), 30)
                except TimeoutError:
                    raise AssertionError(f"reader {i} not ready: {tasks[i]}") from None

            await eve.say(text="who wins?")
            await eve.say(phrase="well_played")
            # free text: members who read it; never dan (phrases only) nor the visitor
            assert (await cat.next())["text"] == "who wins?"
            assert (await cat.next())["text"] == "お見事！"
            assert (await dan.next())["text"] == "Well played!"
            got = await visitor.next()
            assert (got["phrase"], got["text"], got["seat"]) == ("well_played", "¡Bien jugado!",
                                                                 None)
            # the player heard none of it: her next message is her own
            await ann.say(phrase="thanks")
            assert (await ann.next())["from"] == "ann"
            assert [(await eve.next())["text"] for _ in range(2)] == ["who wins?",
                                                                      "Well played!"]
            assert dan.chats.empty() and visitor.chats.empty()  # no free text came
            for t in tasks:
                t.cancel()

    asyncio.run(scenario())
