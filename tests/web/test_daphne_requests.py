"""daphne's requests leave form bodies to Django (blaze_site/daphne_requests.py)."""

from types import SimpleNamespace

from daphne import http_protocol
from twisted.internet.testing import StringTransport

import blaze_site.asgi  # noqa: F401  (installs the request class, as daphne loads it)


def _post(path: str, content_type: bytes, body: bytes):
    """One POST through daphne's own HTTP protocol, up to the ASGI application."""
    raw = (b"POST %s HTTP/1.1\r\nHost: x\r\nContent-Type: %s\r\nContent-Length: %d\r\n\r\n%s"
           % (path.encode(), content_type, len(body), body))
    handed: list = []
    server = SimpleNamespace(
        proxy_forwarded_address_header=None, root_path="", request_buffer_size=8192,
        protocol_connected=lambda request: None,
        create_application=lambda request, scope: SimpleNamespace(
            put_nowait=lambda message: handed.append((request, scope, message))))
    protocol = http_protocol.HTTPFactory(server).buildProtocol(("127.0.0.1", 5))
    protocol.makeConnection(StringTransport())
    protocol.dataReceived(raw)
    return handed


def test_a_form_post_reaches_the_application_unparsed_by_twisted():
    body = b"a=1&b=2"
    handed = _post("/accounts/login/", b"application/x-www-form-urlencoded", body)
    [(request, scope, message)] = handed
    assert scope["method"] == "POST" and message["body"] == body
    assert request.args == {}  # Twisted's stock request would hold {b"a": [b"1"], ...}


def test_a_json_post_reaches_the_application_whole():
    body = b'{"seq": 3, "move": {"move": "done"}}'
    handed = _post("/api/v1/games/1/moves", b"application/json", body)
    [(_, scope, message)] = handed
    assert scope["path"] == "/api/v1/games/1/moves" and message["body"] == body
