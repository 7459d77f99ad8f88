"""A socket the site refuses tells a real client why, under both web servers: it is
accepted, then closed with the code (4401, 4404). A refusal before the accept is a bare
HTTP 403 to the client: a browser reads close code 1006 and, as static/js does for any
code but 4401/4403/4404, tries again forever. A handshake the site was too busy to answer
in time is HTTP 503 with Retry-After (uvicorn), not 403: forbidden is no reason to retry.
A client's bad frame is its own fault: closed 1007, one warning line, no traceback."""

import base64
import os
import secrets
import socket
import subprocess
import sys
from pathlib import Path

import pytest

from tests import servers
from tests.web.test_two_processes import _frame, _raw_socket

CLOSE = 8


def _manage(env: dict, *args: str) -> str:
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=servers.ROOT, env=env,
                          capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    return done.stdout


@pytest.fixture(scope="module")
def site_env(tmp_path_factory) -> dict:
    folder: Path = tmp_path_factory.mktemp("refusals")
    keep = {"PATH", "HOME", "LANG", "LC_ALL", "TMPDIR"}
    env = {k: v for k, v in os.environ.items() if k in keep}
    env.update(DJANGO_SETTINGS_MODULE="tests.abuse.schema_settings", DEBUG="0",
               SECRET_KEY=secrets.token_urlsafe(50), BLAZE_INMEMORY="1",
               DATABASE_URL=f"sqlite:///{folder / 'site.sqlite3'}")
    _manage(env, "migrate", "--noinput", "-v0")
    env["TOKEN"] = _manage(env, "blaze_token", "refused").strip().splitlines()[-1]
    return env


def _close_code(url: str, path: str) -> int:
    sock = _raw_socket(url, path)  # asserts the handshake's 101
    try:
        frame = _frame(sock)
    finally:
        sock.close()
    assert frame is not None and frame[0] == CLOSE, frame
    return int.from_bytes(frame[1][:2], "big")


@pytest.mark.parametrize("server", servers.WEB_SERVERS)
def test_a_refused_socket_reads_its_close_code_from_a_real_server(site_env, tmp_path,
                                                                  server):
    env = {k: v for k, v in site_env.items() if k != "TOKEN"}
    with servers.web(env, tmp_path / "web.log", server=server) as site:
        assert _close_code(site.url, "/ws/games/1/?token=blz_wrong") == 4401
        assert _close_code(site.url, f"/ws/games/999999/?token={site_env['TOKEN']}") == 4404
        assert _close_code(site.url, "/ws/notices/?token=blz_wrong") == 4401
    assert "Traceback" not in (tmp_path / "web.log").read_text()


def _handshake_answer(url: str, path: str) -> bytes:
    """The head of the server's answer to a WebSocket handshake."""
    host, port = url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=30) as sock:
        key = base64.b64encode(os.urandom(16)).decode()
        sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
                     f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
                     "Sec-WebSocket-Version: 13\r\n\r\n".encode())
        head = b""
        while b"\r\n\r\n" not in head:
            chunk = sock.recv(4096)
            assert chunk, f"no handshake answer: {head!r}"
            head += chunk
    return head.split(b"\r\n\r\n")[0]


def test_a_handshake_too_late_to_answer_is_503_with_retry_after_not_403(site_env, tmp_path):
    env = {k: v for k, v in site_env.items() if k != "TOKEN"}
    env["WS_HANDSHAKE_WAIT_SECONDS"] = "-1"  # every handshake's read comes too late
    with servers.web(env, tmp_path / "web.log") as site:
        for path in (f"/ws/games/1/?token={site_env['TOKEN']}",
                     f"/ws/notices/?token={site_env['TOKEN']}"):
            head = _handshake_answer(site.url, path).lower()
            assert head.startswith(b"http/1.1 503"), head
            assert b"\r\nretry-after: 2" in head, head
    assert "Traceback" not in (tmp_path / "web.log").read_text()


def test_uvicorn_serves_a_handshake_past_daphnes_limit(site_env, tmp_path):
    # uvicorn waits for the answer: daphne's limit (the socket dropped) does not apply
    env = {k: v for k, v in site_env.items() if k != "TOKEN"}
    env["WS_HANDSHAKE_SECONDS"] = "-1"
    with servers.web(env, tmp_path / "web.log") as site:
        assert _close_code(site.url, f"/ws/games/999999/?token={site_env['TOKEN']}") == 4404


def test_a_text_frame_of_invalid_utf8_closes_1007_with_one_line_and_no_traceback(
        site_env, tmp_path):
    env = {k: v for k, v in site_env.items() if k != "TOKEN"}
    with servers.web(env, tmp_path / "web.log") as site:
        sock = _raw_socket(site.url, f"/ws/notices/?token={site_env['TOKEN']}")
        try:
            assert _frame(sock)[0] == 1  # the unread count
            payload, mask = b'\xff\xfe{"type": "ping"}', os.urandom(4)
            sock.sendall(bytes([0x81, 0x80 | len(payload)]) + mask
                         + bytes(b ^ mask[i % 4] for i, b in enumerate(payload)))
            frame = _frame(sock)
        finally:
            sock.close()
    assert frame is not None and frame[0] == CLOSE
    assert int.from_bytes(frame[1][:2], "big") == 1007
    log = (tmp_path / "web.log").read_text()
    assert "Traceback" not in log
    assert log.count("Invalid UTF-8 sequence received from client.") == 1
