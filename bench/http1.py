"""A lean HTTP/1.1 client for the load benchmark's requests: keep-alive connections per
site, a request written in one piece, the answer read by its Content-Length (or chunks).

The benchmark's client shares the cores with the server it measures; aiohttp's request
machinery (cookies, tracing, payload objects) took over half of the client's CPU, CPU the
server then lacked. The sockets stay aiohttp's.
"""

import asyncio
import functools
import time
from urllib.parse import urlsplit

# A kept connection idle this long is closed rather than used: uvicorn ends idle ones
# after its --timeout-keep-alive (75 s in scripts/uvicorn.args), and one taken just as the
# server ends it is reset under the request.
IDLE_SECONDS = 50.0


class HttpError(ConnectionError):
    """The server closed the connection or answered something that is not HTTP/1.1."""


class Http1:
    def __init__(self, timeout: float):
        self.timeout = timeout
        self._idle: dict[str, list] = {}  # "host:port" -> idle (reader, writer, since)

    async def request(self, method: str, url: str, body: bytes = b"",
                      headers: dict | None = None) -> tuple[int, bytes]:
        """(status, body) of one request; raises TimeoutError or OSError."""
        host, port, site, target = _split(url)
        lines = [f"{method} {target} HTTP/1.1", f"Host: {site}",
                 f"Content-Length: {len(body)}"]
        if body:
            lines.append("Content-Type: application/json")
        lines += [f"{k}: {v}" for k, v in (headers or {}).items()]
        message = ("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body
        async with asyncio.timeout(self.timeout):
            while True:
                reused, (reader, writer) = await self._connection(host, port, site)
                try:
                    writer.write(message)
                    status, answer, keep = await _read_answer(reader)
                except (OSError, asyncio.IncompleteReadError, asyncio.LimitOverrunError) as e:
                    writer.close()
                    # a kept connection ended (closed or reset) with no answer: the server
                    # ends idle ones, unread; sent again on a new one (a move repeated
                    # carries its seq, so the server refuses it rather than playing it twice)
                    if reused and _ended_unanswered(e):
                        continue
                    raise HttpError(f"{method} {url}: {e!r}") from e
                except BaseException:
                    writer.close()
                    raise
                if keep:
                    self._idle.setdefault(site, []).append((reader, writer, time.monotonic()))
                else:
                    writer.close()
                return status, answer

    async def _connection(self, host: str, port: int, site: str):
        idle = self._idle.get(site)
        stale = time.monotonic() - IDLE_SECONDS
        while idle and idle[0][2] < stale:  # kept in the order they went idle
            idle.pop(0)[1].close()
        while idle:
            reader, writer, _since = idle.pop()
            if not writer.is_closing() and not reader.at_eof():
                return True, (reader, writer)
            writer.close()
        return False, await asyncio.open_connection(host, port)

    def close(self) -> None:
        for idle in self._idle.values():
            for _reader, writer, _since in idle:
                writer.close()
        self._idle.clear()


def _ended_unanswered(e: BaseException) -> bool:
    """Whether the connection ended with no answer: closed with nothing read, or reset
    (how a server's end of an idle connection meets a request written into it; a move
    sent again after a rarer reset mid-answer is refused by its seq)."""
    if isinstance(e, asyncio.IncompleteReadError):
        return not e.partial
    return isinstance(e, (ConnectionResetError, BrokenPipeError))


@functools.lru_cache(maxsize=16_384)  # a table's few addresses, asked at every move
def _split(url: str) -> tuple[str, int, str, str]:
    """(host, port, "host:port", path and query) of an http:// address."""
    parts = urlsplit(url)
    if parts.scheme != "http" or not parts.hostname:
        raise ValueError(f"only http:// addresses, not {url!r}")
    port = parts.port or 80
    target = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.hostname, port, f"{parts.hostname}:{port}", target


async def _read_answer(reader: asyncio.StreamReader) -> tuple[int, bytes, bool]:
    head = await reader.readuntil(b"\r\n\r\n")
    status_line, *header_lines = head[:-4].decode("latin-1").split("\r\n")
    version, _, rest = status_line.partition(" ")
    if not version.startswith("HTTP/1."):
        raise HttpError(f"not an HTTP/1.x answer: {status_line!r}")
    status = int(rest[:3])
    headers = {}
    for line in header_lines:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    keep = headers.get("connection", "").lower() != "close" and version == "HTTP/1.1"
    if headers.get("transfer-encoding", "").lower() == "chunked":
        chunks = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            chunks.append(await reader.readexactly(size))
            await reader.readexactly(2)
        while await reader.readuntil(b"\r\n") != b"\r\n":  # trailers
            pass
        return status, b"".join(chunks), keep
    if "content-length" in headers:
        return status, await reader.readexactly(int(headers["content-length"])), keep
    if status in (204, 304) or 100 <= status < 200:
        return status, b"", keep
    return status, await reader.read(), False  # the body ends with the connection
