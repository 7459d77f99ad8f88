"""Programs' API requests (a bearer token) pass a shorter middleware chain than pages and
browsers: the same answers, headers included (but for `Vary: Cookie`: a program's answer does not
depend on cookies), without the browser's middleware."""

import json

import pytest
from asgiref.sync import async_to_sync
from channels.testing import HttpCommunicator
from django.conf import settings
from django.test import Client

from accounts.services import api_token_create
from blaze_site.asgi_handler import SyncChainASGIHandler
from games import services
from tests.conftest import make_user

pytestmark = pytest.mark.django_db(transaction=True)


def _ask(app, method, path, body=b"", headers=()):
    async def go():
        answer = await HttpCommunicator(app, method, path, body=body,
                                        headers=[(b"host", b"testserver"), *headers]
                                        ).get_response(timeout=20)
        got = dict(answer["headers"])
        if b"Expires" in got:  # the time of the answer
            got[b"Expires"] = b"(a date)"
        return answer["status"], got, answer["body"]

    return async_to_sync(go)()


@pytest.fixture
def handlers():
    lean = SyncChainASGIHandler(2, settings.PROGRAM_MIDDLEWARE)
    served = []
    program_chain = lean._programs.get_response

    def counted(request):
        served.append(request.path)
        return program_chain(request)

    lean._programs.get_response = counted
    return lean, SyncChainASGIHandler(2), served


def test_a_programs_answers_are_those_of_the_whole_chain_headers_included(handlers):
    lean, whole, served = handlers
    ann = make_user("ann")
    # a table still waiting for players: no clock runs between the two answers
    game = services.game_create(creator=ann, players=3)
    bearer = (b"authorization", f"Bearer {api_token_create(user=ann, name='p')[1]}".encode())
    as_json = (b"content-type", b"application/json")
    moves = f"/api/v1/games/{game.pk}/moves"
    asked = [
        ("GET", "/api/v1/me", b"", [bearer]),
        ("GET", "/api/v1/me", b"", [(b"authorization", b"Bearer blz_wrong")]),
        ("GET", "/api/v1/games/987654", b"", [bearer, (b"accept-language", b"ja")]),
        ("GET", f"/api/v1/games/{game.pk}", b"", [bearer]),
        ("POST", moves, json.dumps({"seq": 5, "move": {"move": "pass"}}).encode(),
         [bearer, as_json]),
        ("POST", moves, b"{not json", [bearer, as_json]),
        ("POST", moves, json.dumps({"seq": 0, "move": {}, "x": 1}).encode(),
         [bearer, as_json]),
        ("GET", "/api/v1/nowhere", b"", [bearer]),
    ]
    statuses = []
    for method, path, body, headers in asked:
        answer = _ask(lean, method, path, body, headers)
        expected = _ask(whole, method, path, body, headers)
        # the whole chain reads the session (for the time zone's user), so its answers
        # vary by Cookie; a program's answer depends on its token, not on cookies
        vary = expected[1].get(b"Vary", b"").replace(b", Cookie", b"")
        expected[1][b"Vary"] = vary
        answer[1].setdefault(b"Vary", b"")
        assert answer[0] == expected[0] and answer[2] == expected[2], (method, path)
        assert answer[1] == expected[1], set(answer[1].items()) ^ set(expected[1].items())
        statuses.append(answer[0])
    assert statuses == [200, 401, 404, 200, 409, 400, 400, 404]
    assert len(served) == len(asked)  # every one passed the programs' chain
    assert json.loads(_ask(lean, "GET", "/api/v1/me", b"", [bearer])[2])["username"] == "ann"


def test_a_browsers_api_request_and_pages_keep_the_whole_chain(handlers):
    lean, _whole, served = handlers
    browser = Client()
    browser.force_login(make_user("ann"))
    cookie = (b"cookie", f"sessionid={browser.cookies['sessionid'].value}".encode())
    for headers in ([cookie], [cookie, (b"authorization", b"")]):  # (an empty one: no token)
        status, _headers, body = _ask(lean, "GET", "/api/v1/me", b"", headers)
        assert status == 200 and json.loads(body)["username"] == "ann"  # the session's user
    assert _ask(lean, "GET", "/", b"", [cookie])[0] == 200
    assert served == []
