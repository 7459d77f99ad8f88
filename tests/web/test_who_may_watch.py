"""One rule says who may watch a game (games.visibility.can_watch): anyone for a public
game; for a private table or an imported record its players, its creator, staff and
holders of its invite link. Everyone else is told there is no such game (404), by the
API, the pages, the record, the replay and the socket alike."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from blaze_site.asgi import application
from games import services
from games.models import Game
from tests.conftest import make_user
from tests.games_helpers import api_get, bearer
from tests.web.refusals import close_code

pytestmark = pytest.mark.usefixtures("own_channel_prefix")


def _private_finished_game(ann, bob, cat) -> Game:
    game = services.game_create(creator=ann, players=3, private=True)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    Game.objects.filter(pk=game.pk).update(status=Game.FINISHED)  # its record is shown then
    game.refresh_from_db()
    return game


def _api_paths(game_id):
    base = f"/api/v1/games/{game_id}"
    return [base, f"{base}/record", f"{base}/replay"]


@pytest.mark.django_db
def test_an_outsider_gets_404_from_the_api_and_pages_of_a_private_game(client, ann, bob, cat,
                                                                       eve):
    game = _private_finished_game(ann, bob, cat)
    for path in _api_paths(game.pk):
        answer = api_get(client, path, bearer(eve))
        assert answer.status_code == 404 and answer.json() == {"error": "no such game"}, path
    client.force_login(eve)
    for name in ("game_table", "game_replay"):
        assert client.get(reverse(name, args=[game.pk])).status_code == 404
    # The same answer as for a game that does not exist.
    assert api_get(client, "/api/v1/games/999999", bearer(eve)).status_code == 404


@pytest.mark.django_db
def test_players_creator_and_staff_watch_a_private_game(client, ann, bob, cat, dan):
    game = _private_finished_game(ann, bob, cat)
    dan.is_staff = True
    dan.save()
    for user in (ann, bob, dan):
        for path in _api_paths(game.pk):
            assert api_get(client, path, bearer(user)).status_code == 200, (user, path)
        client.force_login(user)
        assert client.get(reverse("game_table", args=[game.pk])).status_code == 200
        assert client.get(reverse("game_replay", args=[game.pk])).status_code == 200


@pytest.mark.django_db
def test_the_invite_link_lets_its_holder_watch_and_the_page_remembers_it(client, ann, bob,
                                                                          cat, eve):
    game = _private_finished_game(ann, bob, cat)
    wrong = api_get(client, f"/api/v1/games/{game.pk}?invite=not-the-code", bearer(eve))
    assert wrong.status_code == 404
    given = api_get(client, f"/api/v1/games/{game.pk}?invite={game.invite_code}", bearer(eve))
    assert given.status_code == 200 and given.json()["you"] is None
    assert "hand" not in given.json()

    client.force_login(eve)
    page = client.get(reverse("game_table", args=[game.pk]), {"invite": game.invite_code},
                      follow=True)
    assert page.status_code == 200
    # The page's own calls carry no code: the session remembered it.
    assert client.get(f"/api/v1/games/{game.pk}/replay").status_code == 200
    assert client.get(f"/api/v1/games/{game.pk}/record").status_code == 200


@pytest.mark.django_db
def test_an_imported_record_is_shown_only_to_whoever_imported_it(client, ann, eve):
    from games.engine import export_record, state_from_deal
    from tests.ratings.factories import random_game

    deal, moves = random_game(3, seed=1)
    state = state_from_deal(deal)
    for move in moves:
        state.apply(move)
    record = export_record(state, ["x", "y", "z"], {})
    game = services.record_import(user=ann, record=record)
    assert api_get(client, f"/api/v1/games/{game.pk}/replay", bearer(ann)).status_code == 200
    for path in _api_paths(game.pk):
        assert api_get(client, path, bearer(eve)).status_code == 404


@pytest.mark.django_db
def test_anyone_watches_a_public_game(client, ann, bob, cat, eve):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    view = api_get(client, f"/api/v1/games/{game.pk}", bearer(eve)).json()
    assert view["id"] == game.pk and view["you"] is None and "hand" not in view


def _ws(game_id, query=""):
    return WebsocketCommunicator(application, f"/ws/games/{game_id}/{query}",
                                 headers=[(b"origin", b"http://localhost")])


@pytest.mark.django_db(transaction=True)
def test_the_socket_follows_the_same_rule():
    async_to_sync(_socket_follows_the_same_rule)()


async def _socket_follows_the_same_rule():
    from accounts.services import api_token_create

    def setup():
        ann, bob, cat, eve = (make_user(n) for n in ("ann", "bob", "cat", "eve"))
        private = services.game_create(creator=ann, players=3, private=True)
        public = services.game_create(creator=ann, players=3)
        tokens = {u.username: api_token_create(user=u, name="ws")[1] for u in (ann, eve)}
        return private, public, tokens

    private, public, tokens = await database_sync_to_async(setup)()
    outsider = _ws(private.pk, f"?token={tokens['eve']}")
    assert await close_code(outsider) == 4404
    anonymous = _ws(private.pk)
    assert await close_code(anonymous) == 4401

    for ws in (_ws(private.pk, f"?token={tokens['ann']}"),
               _ws(private.pk, f"?token={tokens['eve']}&invite={private.invite_code}"),
               _ws(public.pk)):  # anonymous visitors watch public games
        assert (await ws.connect())[0]
        message = await ws.receive_json_from(timeout=5)
        assert message["type"] == "view" and message["view"]["id"] in (private.pk, public.pk)
        await ws.disconnect()


@pytest.mark.django_db(transaction=True)
def test_a_refused_socket_hears_nothing_of_the_game_afterwards():
    async_to_sync(_refused_socket_hears_nothing)()


async def _refused_socket_hears_nothing():
    from accounts.services import api_token_create

    def setup():
        ann, bob, eve = (make_user(n) for n in ("ann", "bob", "eve"))
        private = services.game_create(creator=ann, players=3, private=True)
        tokens = {u.username: api_token_create(user=u, name="ws")[1] for u in (ann, eve)}
        return private, bob, tokens

    private, bob, tokens = await database_sync_to_async(setup)()
    outsider = _ws(private.pk, f"?token={tokens['eve']}")
    assert await close_code(outsider) == 4404
    creator = _ws(private.pk, f"?token={tokens['ann']}")
    assert (await creator.connect())[0]
    assert (await creator.receive_json_from(timeout=5))["seq"] == 0
    await database_sync_to_async(services.game_join)(
        game_id=private.pk, user=bob, invite_code=private.invite_code)
    changed = await creator.receive_json_from(timeout=5)  # the change went out...
    assert [p["name"] for p in changed["view"]["players"]][:2] == ["ann", "bob"]
    assert await outsider.receive_nothing(timeout=0.5)  # ...but not to the refused socket
    await creator.disconnect()
