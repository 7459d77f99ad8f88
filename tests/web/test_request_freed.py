"""A web process's finished request is freed at once, not left to the garbage collector
(each collection pauses every socket and request of the process)."""

import gc
import weakref

import pytest
from django.core.handlers.wsgi import WSGIHandler

from accounts.services import api_token_create
from blaze_site.http_threads import ThreadedWSGIHandler, wsgi_environ

pytestmark = pytest.mark.django_db(transaction=True)



def _scope(secret: str) -> dict:
    return {"type": "http", "method": "GET", "path": "/api/v1/games", "query_string": b"",
            "headers": [(b"host", b"testserver"), (b"cookie", b"sessionid=none"),
                        (b"authorization", f"Bearer {secret}".encode())],
            "scheme": "http", "server": ("testserver", 80), "client": ("127.0.0.1", 5000),
            "http_version": "1.1"}


def _serve_noting_the_request(handler: ThreadedWSGIHandler, secret: str
                              ) -> tuple[int, weakref.ref]:
    noted = []
    plain = handler.wsgi.request_class

    class Watched(plain):
        def __init__(self, environ):
            super().__init__(environ)
            noted.append(weakref.ref(self))

    handler.wsgi.request_class = Watched
    status, _, _, rest = handler._serve(wsgi_environ(_scope(secret), b""))
    assert rest is None
    return status, noted[0]


@pytest.fixture
def secret(ann):
    return api_token_create(user=ann, name="bot")[1]


@pytest.fixture
def collector_off():
    gc.collect()
    gc.disable()
    yield
    gc.enable()


def test_a_finished_request_is_freed_without_the_garbage_collector(secret, collector_off):
    handler = ThreadedWSGIHandler(1)
    status, request = _serve_noting_the_request(handler, secret)
    assert status == 200
    assert request() is None


def test_left_whole_the_middleware_keeps_a_request_in_cycles(secret, collector_off):
    # why the bridge empties it: Django's own handler leaves it to the collector
    handler = ThreadedWSGIHandler(1)
    handler.wsgi = WSGIHandler()
    status, request = _serve_noting_the_request(handler, secret)
    assert status == 200
    assert request() is not None
    gc.collect()
    assert request() is None
