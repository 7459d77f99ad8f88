"""`make run`'s own redis-server keeps an append-only file, so queued tasks survive it."""

import shutil
import socket
import sys
from pathlib import Path

import pytest
import redis

ROOT = Path(__file__).resolve().parents[2]
PORT = 8798


@pytest.fixture
def run_stack(monkeypatch, tmp_path):
    if shutil.which("redis-server") is None:
        pytest.skip("needs redis-server")
    with socket.socket() as s:
        if s.connect_ex(("127.0.0.1", PORT)) == 0:
            pytest.skip(f"port {PORT} is taken")
    monkeypatch.syspath_prepend(str(ROOT / "scripts"))
    sys.modules.pop("run_stack", None)
    import run_stack

    monkeypatch.setattr(run_stack, "RUN_DIR", tmp_path)
    return run_stack


def test_the_redis_make_run_starts_writes_an_append_only_file_under_run(run_stack, tmp_path):
    env = {"REDIS_URL": f"redis://127.0.0.1:{PORT}/0"}
    server = run_stack.redis_start(env)
    assert server is not None and "BLAZE_INMEMORY" not in env
    client = redis.Redis(port=PORT)
    try:
        assert client.config_get("appendonly") == {"appendonly": "yes"}
        assert Path(client.config_get("dir")["dir"]) == tmp_path / "redis"
        client.lpush("queued", "a task")
        client.close()
        server.terminate()
        server.wait(timeout=30)
        server = run_stack.redis_start(env)  # started again: the task is still there
        client = redis.Redis(port=PORT)
        assert client.lrange("queued", 0, -1) == [b"a task"]
    finally:
        client.close()
        server.terminate()
        server.wait(timeout=30)
