"""HTTP requests served by Django's WSGI handler on a few long-lived threads.

Django's ASGI handler gives every request a new thread of its own (asgiref's
ThreadSensitiveContext) and hops between it and the event loop four times a request; under
load that was a large share of a web process's CPU. Here each request runs whole (signals,
middleware, view, closing the response) in one call of Django's public WSGI interface, on a
pool of `threads` threads that live as long as the process, so each keeps its connection
objects. The bridge between the ASGI scope and the WSGI environ (PEP 3333) is ours; nothing
of Django's is copied or replaced.
"""

import asyncio
import io
import queue
import sys
import threading

from django.core.handlers.wsgi import WSGIHandler, WSGIRequest

_END = object()
_REQUEST = "blaze.request"  # the environ's key for the request it became


class _NotedRequest(WSGIRequest):
    """Django's request, noted in its environ, so the bridge can take it apart once the
    answer is closed."""

    def __init__(self, environ):
        super().__init__(environ)
        environ[_REQUEST] = self


class _Handler(WSGIHandler):
    request_class = _NotedRequest


def _take_apart(environ: dict) -> None:
    """Empty the finished request: the middleware leaves it in reference cycles (its
    user, messages and nonce are lazy objects that hold it), which only the garbage
    collector would free, a hundred objects a request. Emptied, they are freed at once,
    and the collector runs far less often (each run pauses the process: every socket and
    request on it waits)."""
    request = environ.pop(_REQUEST, None)
    if request is not None:
        request.__dict__.clear()


def wsgi_environ(scope: dict, body: bytes) -> dict:
    """The PEP 3333 environ of an ASGI HTTP scope and its whole body."""
    server = scope.get("server") or ("localhost", 80)
    client = scope.get("client") or ("", 0)
    environ = {
        "REQUEST_METHOD": scope["method"],
        "SCRIPT_NAME": scope.get("root_path", "").encode("utf-8").decode("latin-1"),
        "PATH_INFO": scope["path"].encode("utf-8").decode("latin-1"),
        "QUERY_STRING": scope.get("query_string", b"").decode("latin-1"),
        "SERVER_NAME": str(server[0]),
        "SERVER_PORT": str(server[1] if server[1] is not None else 80),
        "SERVER_PROTOCOL": f"HTTP/{scope.get('http_version', '1.1')}",
        "REMOTE_ADDR": str(client[0]),
        "REMOTE_PORT": str(client[1]),
        "CONTENT_LENGTH": str(len(body)),
        "wsgi.version": (1, 0),
        "wsgi.url_scheme": scope.get("scheme", "http"),
        "wsgi.input": io.BytesIO(body),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": True,
        "wsgi.multiprocess": True,
        "wsgi.run_once": False,
    }
    for raw_name, raw_value in scope.get("headers", []):
        name = raw_name.decode("latin-1").upper().replace("-", "_")
        value = raw_value.decode("latin-1")
        if name == "CONTENT_TYPE":
            environ["CONTENT_TYPE"] = value
            continue
        if name == "CONTENT_LENGTH":
            continue  # the body read is what counts
        key = f"HTTP_{name}"
        environ[key] = f"{environ[key]},{value}" if key in environ else value
    return environ


def _settle(future: asyncio.Future, result, error) -> None:
    if future.cancelled():
        return  # the request's task was cancelled (client gone); the call ran anyway
    if error is None:
        future.set_result(result)
    elif isinstance(error, StopIteration):  # a future cannot hold one (PEP 479)
        future.set_exception(RuntimeError(f"{error!r} raised on a request thread"))
    else:
        future.set_exception(error)


class Threads:
    """A few long-lived threads that run calls for event loops: a job goes in on one queue
    and its result comes back by the loop's own wake-up. run_in_executor with a
    ThreadPoolExecutor did the same through a concurrent Future chained to an asyncio one,
    with a lock and a condition each way: 16.6 against 6.4 µs of CPU a trip (bench.handoff);
    under load the trip fell from about 5% of a web process's samples to 1.2% (py-spy)."""

    def __init__(self, count: int, name: str):
        self.count, self.name = count, name
        self._jobs: queue.SimpleQueue = queue.SimpleQueue()
        self._started = False
        self._starting = threading.Lock()

    def run(self, fn, *args) -> asyncio.Future:
        """An awaitable for fn(*args) run on one of the threads (started at first use)."""
        if not self._started:
            self._start()
        loop = asyncio.get_running_loop()
        future = loop.create_future()
        self._jobs.put((loop, future, fn, args))
        return future

    def _start(self) -> None:
        with self._starting:
            if self._started:
                return
            for i in range(self.count):
                threading.Thread(target=self._work, name=f"{self.name}_{i}",
                                 daemon=True).start()
            self._started = True

    def _work(self) -> None:
        while True:
            loop, future, fn, args = self._jobs.get()
            result = error = None
            try:
                result = fn(*args)
            except BaseException as exc:  # noqa: BLE001 - handed to the awaiting task
                error = exc
            try:
                loop.call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:
                pass  # the loop has closed: no one awaits this any more
            del loop, future, fn, args, result, error  # hold nothing while idle


class ThreadedWSGIHandler:
    """An ASGI application for HTTP: Django's WSGIHandler run on a fixed set of threads."""

    def __init__(self, threads: int):
        self.wsgi = _Handler()
        self.threads = Threads(threads, "django")

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django serves HTTP here, not {scope['type']}")
        chunks = []
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        environ = wsgi_environ(scope, b"".join(chunks))
        status, headers, body, rest = await self.threads.run(self._serve, environ)
        await send({"type": "http.response.start", "status": status, "headers": headers})
        if rest is None:
            await send({"type": "http.response.body", "body": body})
            return
        try:  # a streaming answer: each chunk made on a pool thread, sent from the loop
            if body:
                await send({"type": "http.response.body", "body": body, "more_body": True})
            while (chunk := await self.threads.run(next, rest, _END)) is not _END:
                if chunk:
                    await send({"type": "http.response.body", "body": chunk,
                                "more_body": True})
            await send({"type": "http.response.body", "body": b""})
        finally:
            await self.threads.run(self._close, rest)
            _take_apart(environ)

    def _serve(self, environ):
        """Run the request; (status, headers, body, the rest of a streaming body or None).
        A plain answer comes back closed (request_finished has run on this thread)."""
        started = {}

        def start_response(status, headers, exc_info=None):
            started["status"] = int(status.split(" ", 1)[0])
            started["headers"] = [(k.lower().encode("latin-1"), v.encode("latin-1"))
                                  for k, v in headers]

        result = self.wsgi(environ, start_response)
        if not getattr(result, "streaming", False):
            try:
                body = b"".join(result)
            finally:
                self._close(result)
                _take_apart(environ)
            return started["status"], started["headers"], body, None
        return started["status"], started["headers"], b"", _Chunks(result)

    @staticmethod
    def _close(result):
        close = getattr(result, "close", None)
        if close is not None:
            close()


class _Chunks:
    """A streaming answer's chunks, one at a time, and its close()."""

    def __init__(self, result):
        self.result, self.iterator = result, iter(result)

    def __iter__(self):
        return self

    def __next__(self):
        return next(self.iterator)

    def close(self):
        ThreadedWSGIHandler._close(self.result)
