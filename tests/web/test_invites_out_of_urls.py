"""Invite codes stay out of URLs (issue: 1,987 access-log lines carried them): the link
puts the code in the fragment, which browsers never send; the page posts it; programs send
the Blaze-Invite header; an older ?invite= link still opens the table, once, then the
address is clean."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.urls import reverse

from blaze_site.asgi import application
from games import services
from games.models import Game, Seat
from tests.games_helpers import api_get, api_post, bearer
from tests.web.refusals import close_code

pytestmark = pytest.mark.django_db


def _private_table(ann):
    return services.game_create(creator=ann, players=3, private=True)


def test_the_invite_link_carries_its_code_in_the_fragment_only(client, ann):
    game = _private_table(ann)
    client.force_login(ann)
    page = client.get(reverse("game_table", args=[game.pk]))
    link = page.context["invite_url"]
    assert link.endswith(f"/games/{game.pk}/#invite={game.invite_code}")
    assert "?" not in link
    assert f"?invite={game.invite_code}" not in page.content.decode()


def test_the_page_posts_the_fragments_code_and_then_the_table_opens(client, ann, eve):
    game = _private_table(ann)
    client.force_login(eve)
    table = reverse("game_table", args=[game.pk])
    assert client.get(table).status_code == 404
    opened = client.post(reverse("game_invite_open", args=[game.pk]), {"invite": game.invite_code})
    assert opened.status_code == 204
    assert client.get(table).status_code == 200
    # the join form carries no code: the session holds it
    client.post(reverse("game_join", args=[game.pk]))
    assert Seat.objects.filter(game=game, user=eve).exists()


def test_a_wrong_code_or_a_public_or_missing_table_is_a_404_and_opens_nothing(client, ann, eve):
    game = _private_table(ann)
    public = services.game_create(creator=ann, players=3)
    client.force_login(eve)
    for game_id, code in [(game.pk, "not-the-code"), (game.pk, ""), (game.pk, "Å\x00"),
                          (public.pk, public.invite_code), (10**9, game.invite_code)]:
        answer = client.post(reverse("game_invite_open", args=[game_id]), {"invite": code})
        assert answer.status_code == 404, (game_id, code)
    assert client.get(reverse("game_table", args=[game.pk])).status_code == 404
    assert client.get(reverse("game_invite_open", args=[game.pk])).status_code == 405


def test_the_not_found_page_carries_the_script_that_opens_a_fragments_invite(client, ann, eve):
    game = _private_table(ann)
    client.force_login(eve)
    page = client.get(reverse("game_table", args=[game.pk]))
    body = page.content.decode()
    assert page.status_code == 404
    assert "js/invite.js" in body and 'id="invite-status"' in body
    assert "csrfmiddlewaretoken" in body


def test_an_older_query_link_still_opens_the_table_then_the_address_is_clean(client, ann, eve):
    game = _private_table(ann)
    client.force_login(eve)
    answer = client.get(reverse("game_table", args=[game.pk]), {"invite": game.invite_code})
    assert answer.status_code == 302 and answer.url == reverse("game_table", args=[game.pk])
    assert client.get(answer.url).status_code == 200


def test_programs_send_the_invite_in_a_header(client, ann, eve):
    game = _private_table(ann)
    path = f"/api/v1/games/{game.pk}"
    assert api_get(client, path, bearer(eve)).status_code == 404
    wrong = api_get(client, path, {**bearer(eve), "HTTP_BLAZE_INVITE": "nope"})
    assert wrong.status_code == 404
    seen = api_get(client, path, {**bearer(eve), "HTTP_BLAZE_INVITE": game.invite_code})
    assert seen.status_code == 200 and seen.json()["you"] is None
    joined = api_post(client, f"{path}/join", {},
                      {**bearer(eve), "HTTP_BLAZE_INVITE": game.invite_code})
    assert joined.status_code == 200 and joined.json()["you"] is not None
    assert Game.objects.get(pk=game.pk).seats.filter(user=eve).exists()


@pytest.mark.django_db(transaction=True)
def test_a_socket_may_carry_the_invite_in_a_header():
    async_to_sync(_socket_header)()


async def _socket_header():
    from accounts.services import api_token_create
    from tests.conftest import make_user

    def setup():
        ann, eve = make_user("ann"), make_user("eve")
        return _private_table(ann), api_token_create(user=eve, name="ws")[1]

    game, token = await database_sync_to_async(setup)()
    auth = (b"authorization", f"Bearer {token}".encode())
    origin = (b"origin", b"http://localhost")
    refused = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[origin, auth])
    assert await close_code(refused) == 4404
    ws = WebsocketCommunicator(application, f"/ws/games/{game.pk}/", headers=[
        origin, auth, (b"blaze-invite", game.invite_code.encode())])
    assert (await ws.connect())[0]
    assert (await ws.receive_json_from(timeout=5))["view"]["id"] == game.pk
    await ws.disconnect()
