"""Refuse request bodies bigger than settings.BLAZE_MAX_BODY_BYTES before reading them.

Django's ASGI handler reads a whole body (to memory or a temporary file) before any
middleware runs, so the cap sits in front of it: a declared Content-Length over the cap is
answered 413 at once; a body without one (chunked) is counted while it arrives and cut off
when it passes the cap.
"""

import json

API_PREFIX = b"/api/"


class BodyLimitMiddleware:
    def __init__(self, app, max_bytes: int):
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        length = _content_length(scope)
        if length is not None and length > self.max_bytes:
            return await self._refuse(scope, send)
        seen = 0
        refused = False
        started = False

        async def counting_receive():
            nonlocal seen, refused
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    refused = True
                    return {"type": "http.disconnect"}  # the app stops reading
            return message

        async def tracking_send(message):
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        await self.app(scope, counting_receive, tracking_send)
        if refused and not started:
            await self._refuse(scope, send)

    async def _refuse(self, scope, send):
        sentence = f"the request body is too big: at most {self.max_bytes:,} bytes"
        path = scope.get("raw_path") or scope.get("path", "").encode()
        if path.startswith(API_PREFIX):
            body, kind = json.dumps({"error": sentence}).encode(), b"application/json"
        else:
            body = (f"<!DOCTYPE html><title>Too big</title><h1>That is too big</h1>"
                    f"<p>{sentence}. Go back and send something smaller.</p>").encode()
            kind = b"text/html; charset=utf-8"
        await send({"type": "http.response.start", "status": 413, "headers": [
            (b"content-type", kind), (b"content-length", str(len(body)).encode()),
            (b"connection", b"close")]})
        await send({"type": "http.response.body", "body": body})


def _content_length(scope) -> int | None:
    for name, value in scope.get("headers", []):
        if name.lower() == b"content-length":
            try:
                return int(value)
            except ValueError:
                return None
    return None
