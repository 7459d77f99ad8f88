"""Django's ASGI handler, serving each HTTP request in one go on one of a few long-lived
threads.

The stock handler gives every request a new thread of its own (asgiref's
ThreadSensitiveContext), hops to it for the request_started signal, back to the loop, to
it again for the middleware and the view, and again to close the response. Under load a
new thread each request was a large share of a web process's CPU: the thread itself,
then new database and cache client objects for it (they are thread-local). Here the
signals, the request, our synchronous middleware chain and the view run in one call on a
pool of `threads` threads that live as long as the process, so each keeps its connection
objects (its database connection returns to the pool at the end of every request, as
before). An async view, should one appear, is adapted by Django as in WSGI.

Programs' requests (under /api/ with an Authorization header) pass a shorter middleware
chain, settings.PROGRAM_MIDDLEWARE: the browser's middleware does nothing for them.
"""

from concurrent.futures import ThreadPoolExecutor

from asgiref.sync import SyncToAsync
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core import signals
from django.core.exceptions import RequestAborted
from django.core.handlers import base
from django.core.handlers.asgi import ASGIHandler, get_script_prefix
from django.http import FileResponse
from django.urls import set_script_prefix


class SyncChainASGIHandler(ASGIHandler):
    def __init__(self, threads: int, program_middleware: list[str] | None = None):
        super().__init__()
        self._threads = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="django")
        self._programs = None if program_middleware is None else \
            ListedMiddlewareHandler(program_middleware)

    def load_middleware(self, is_async=False):
        super().load_middleware(is_async=False)

    def _on_thread(self, function):
        return SyncToAsync(function, thread_sensitive=False, executor=self._threads)

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        try:
            body_file = await self.read_body(receive)
        except RequestAborted:
            return
        try:
            response = await self._on_thread(self._serve)(scope, body_file)
            await self.send_response(response, send)
            if response.streaming:  # its content was produced while sending
                await self._on_thread(response.close)()
        finally:
            body_file.close()

    def _serve(self, scope, body_file):
        """What ASGIHandler.handle does between reading the body and sending the answer,
        synchronously: the response comes back closed (request_finished has run on this
        thread) unless it streams."""
        set_script_prefix(get_script_prefix(scope))
        signals.request_started.send(sender=self.__class__, scope=scope)
        request, response = self.create_request(scope, body_file)
        if request is not None:
            chain = self._programs if self._programs and _from_a_program(request) else self
            response = chain.get_response(request)
            response._handler_class = self.__class__
            if isinstance(response, FileResponse):
                response.block_size = self.chunk_size
        if not response.streaming:
            response.close()
        return response


def _from_a_program(request) -> bool:
    # an empty header is no token: the API judges such a request by its session
    return request.path_info.startswith("/api/") and bool(request.META.get("HTTP_AUTHORIZATION"))


class ListedMiddlewareHandler(base.BaseHandler):
    """Django's request handling with a middleware list of its own (BaseHandler reads
    settings.MIDDLEWARE, which allauth also checks at start-up, so that stays whole)."""

    def __init__(self, middleware: list[str]):
        super().__init__()
        whole = settings.MIDDLEWARE
        settings.MIDDLEWARE = middleware  # only while the chain is built, at start-up
        try:
            self.load_middleware(is_async=False)
        finally:
            settings.MIDDLEWARE = whole


class AnonymousUntilAuthenticated:
    """`request.user` for a program's request: nobody until the API's authentication
    (accounts.api_auth) sets the token's user; no session is read."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        request.user = AnonymousUser()
        return self.get_response(request)
