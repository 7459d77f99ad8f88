"""An invite link in a real browser: the code rides in the fragment (never sent to a
server), the page posts it and the private table opens; a wrong code says so."""

import pytest

from games import services
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_visitor_opens_a_private_table_from_its_invite_link(page, live_asgi):
    game = services.game_create(creator=make_user("ann"), players=3, private=True)
    requested = []
    page.on("request", lambda r: requested.append(r.url))
    page.goto(f"{live_asgi.url}/games/{game.pk}/#invite={game.invite_code}")
    page.wait_for_selector("#table", timeout=30_000)
    assert page.url == f"{live_asgi.url}/games/{game.pk}/"
    assert not [url for url in requested if game.invite_code in url]


def test_a_wrong_invite_link_says_it_is_not_valid(page, live_asgi):
    game = services.game_create(creator=make_user("ann"), players=3, private=True)
    page.goto(f"{live_asgi.url}/games/{game.pk}/#invite=not-the-code")
    page.wait_for_function(
        "() => document.querySelector('#invite-status').textContent.includes('not valid')",
        timeout=30_000)
    assert page.locator("#invite-status").is_visible()
    assert page.locator("#table").count() == 0
