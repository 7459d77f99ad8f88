"""The load benchmark's options, its timeline of the window and its reading of the host's speed,
without a server."""

import argparse
import asyncio
import gc
import os
import socket
import struct
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace

import pytest

from bench import host, http1, loadtest, procs


def test_the_timeline_gives_each_slice_of_the_window_its_own_rate_and_latencies(capsys):
    run = SimpleNamespace(window_start=100.0,
                          post_at=[100.5, 101.0, 104.9, 105.0, 109.0],
                          post_ms=[10.0, 20.0, 30.0, 400.0, 500.0], lags={1: 250.0},
                          samples=[])
    loadtest._print_timeline(run, 5)
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 2
    first, second = lines
    assert "0-5" in first and "moves/s    0.6" in first and "max     30" in first
    assert "client stall ms    0" in first
    assert "5-10" in second and "moves/s    0.4" in second and "p50   500" in second
    assert "client stall ms  250" in second


def test_each_slice_shows_the_web_processes_cpu_a_move_and_the_hosts_steal(capsys):
    samples = [({"load client": 1.0, "web": 10.0, "postgres": 2.0}, (100, 1000)),
               ({"load client": 1.1, "web": 10.8, "postgres": 2.1}, (150, 2000)),
               ({"load client": 1.2, "web": 12.0, "postgres": 2.2}, (150, 3000))]
    run = SimpleNamespace(window_start=0.0, post_at=[1.0] * 200 + [6.0] * 100,
                          post_ms=[10.0] * 300, lags={}, samples=samples)
    loadtest._print_timeline(run, 5)
    first, second = capsys.readouterr().out.splitlines()
    assert first.endswith("CPU ms a move web 4.0 all 5.0  steal 5%")
    assert second.endswith("CPU ms a move web 12.0 all 14.0  steal 0%")


def test_the_hosts_ticks_count_up_and_steal_is_a_part_of_them():
    steal, total = procs.host_ticks()
    assert 0 <= steal <= total and total > 0
    time.sleep(0.05)
    assert procs.host_ticks()[1] >= total


def test_a_stall_of_the_clients_loop_is_noted_in_its_slice():
    async def stall_once():
        await asyncio.sleep(0.05)
        time.sleep(0.15)  # the loop's thread held, as a long collection would

    async def main():
        run = SimpleNamespace(window_start=time.monotonic(), lags={},
                              in_window=lambda t: True)
        watch = asyncio.create_task(loadtest._watch_lag(run, 3600))
        await stall_once()
        await asyncio.sleep(0.05)
        watch.cancel()
        return run.lags

    lags = asyncio.run(main())
    assert list(lags) == [0] and lags[0] >= 100


@pytest.mark.parametrize(("check", "text", "says"), [
    *((loadtest._positive, text, "above 0") for text in ["0", "-5", "soon", "nan", "inf"]),
    *((loadtest._not_negative, text, "0 or more") for text in ["-1", "later", "nan", "inf"]),
])
def test_a_timeline_slice_is_above_0_seconds_and_a_settling_time_0_or_more(check, text, says):
    with pytest.raises(argparse.ArgumentTypeError, match=says):
        check(text)


@pytest.mark.parametrize(("option", "value", "says"), [
    ("--timeline", "0", "a number of seconds above 0"),
    ("--settle", "-3", "0 or more, not '-3'"),
])
def test_a_bad_timeline_or_settling_time_is_refused_before_anything_runs(
        capsys, option, value, says):
    with pytest.raises(SystemExit) as exit_:
        loadtest.main(["--tokens", "none.txt", option, value, "http://127.0.0.1:1"])
    assert exit_.value.code == 2
    assert says in capsys.readouterr().err


def test_the_collector_is_off_for_the_window_and_collects_its_garbage_after():
    assert gc.isenabled()
    with loadtest.collector_paused() as garbage:
        assert not gc.isenabled()
        for _ in range(100):
            cycle = []
            cycle.append(cycle)
        del cycle
    assert gc.isenabled()
    assert garbage[0] >= 100  # the window's cycles, freed once it ended


def _serve(answers: list[bytes], seen: list[bytes], connections: list | None = None):
    """A server answering each request it reads with the next of `answers`; b"" closes
    the connection instead of answering (an idle keep-alive connection the server ended),
    b"RST" resets it (closed with the request unread: the peer gets a reset)."""

    async def handle(reader, writer):
        if connections is not None:
            connections.append(writer)
        while answers:
            try:
                head = await reader.readuntil(b"\r\n\r\n")
            except asyncio.IncompleteReadError:
                break
            length = int(head.lower().split(b"content-length: ")[1].split(b"\r\n")[0])
            seen.append(head + await reader.readexactly(length))
            answer = answers.pop(0)
            if answer == b"RST":
                writer.get_extra_info("socket").setsockopt(
                    socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
                writer.transport.abort()
                return
            if not answer:
                break
            writer.write(answer)
            await writer.drain()
        writer.close()

    return asyncio.start_server(handle, "127.0.0.1", 0)


def _exchange(answers, calls, connections=None, between=None):
    async def main():
        seen: list[bytes] = []
        server = await _serve(answers, seen, connections)
        port = server.sockets[0].getsockname()[1]
        client = http1.Http1(timeout=5)
        results = []
        try:
            for body in calls:
                if between is not None and results:
                    between()
                results.append(await client.request(
                    "POST", f"http://127.0.0.1:{port}/api/v1/x?y=1", body,
                    {"Authorization": "Bearer t"}))
        finally:
            client.close()
            server.close()
        return results, seen

    return asyncio.run(main())


def test_requests_share_a_kept_connection_and_read_lengths_and_chunks():
    answers = [b"HTTP/1.1 200 OK\r\nContent-Length: 8\r\n\r\n{\"a\": 1}",
               b"HTTP/1.1 409 Conflict\r\nTransfer-Encoding: chunked\r\n\r\n"
               b"3\r\n{\"s\r\n5\r\neq\":2\r\n1\r\n}\r\n0\r\n\r\n"]
    results, seen = _exchange(answers, [b'{"seq": 1}', b""])
    assert results == [(200, b'{"a": 1}'), (409, b'{"seq":2}')]
    first = seen[0].decode()
    assert first.startswith("POST /api/v1/x?y=1 HTTP/1.1\r\n")
    assert "Authorization: Bearer t\r\n" in first and "Content-Type: application/json" in first
    assert first.endswith('\r\n\r\n{"seq": 1}')


@pytest.mark.parametrize("ending", [b"", b"RST"], ids=["closed", "reset"])
def test_a_kept_connection_ended_without_an_answer_is_replaced_and_the_request_sent_anew(
        ending):
    answers = [b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok", ending,
               b"HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nagain"]
    results, seen = _exchange(answers, [b"{}", b'{"n": 2}'])
    assert results == [(200, b"ok"), (200, b"again")]
    assert [s.endswith(b'{"n": 2}') for s in seen] == [False, True, True]


def test_a_new_connection_reset_under_the_request_is_an_error():
    with pytest.raises(ConnectionError, match="ConnectionResetError"):
        _exchange([b"RST"], [b"{}"])


def test_a_connection_idle_past_the_limit_is_closed_not_reused(monkeypatch):
    now = [1000.0]
    monkeypatch.setattr(http1.time, "monotonic", lambda: now[0])

    def later():
        now[0] += http1.IDLE_SECONDS + 1

    connections: list = []
    ok = b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"
    results, _seen = _exchange([ok, ok, ok], [b"{}", b"{}"], connections, later)
    assert results == [(200, b"ok"), (200, b"ok")]
    assert len(connections) == 2
    now[0] = 1000.0
    connections.clear()
    results, _seen = _exchange([ok, ok, ok], [b"{}", b"{}"], connections)
    assert len(connections) == 1  # within the limit: kept


def test_an_answer_that_is_not_http_is_an_error_of_the_connection():
    with pytest.raises(ConnectionError, match="not an HTTP"):
        _exchange([b"SMTP ready\r\n\r\n"], [b"{}"])


@pytest.mark.parametrize("url", ["https://127.0.0.1/x", "http:///x", "ftp://h/x"])
def test_an_address_other_than_plain_http_is_refused_before_a_connection(url):
    with pytest.raises(ValueError, match="only http://"):
        asyncio.run(http1.Http1(timeout=1).request("POST", url, b"{}"))


def test_the_hosts_speed_is_moves_replayed_a_cpu_second_from_the_same_records(monkeypatch):
    records = host._records()
    assert records == host._records()  # every run and every hour replays the same games
    moves = sum(len(r["moves"]) for record in records for r in record["rounds"])
    assert moves > 1000
    clock = iter([0.0, 0.1, 0.2, 0.3])  # CPU seconds: two passes fit under 0.25
    monkeypatch.setattr(host.time, "thread_time", lambda: next(clock))
    assert host.engine_replay_rate(0.25) == pytest.approx(2 * moves / 0.3)


def test_the_load_benchmark_says_the_hosts_speed_and_the_engines_build():
    line = loadtest.host_line(471113.4, (48.6, 20.2))
    assert line == (f"host: the engine ({host.engine_build()}) replays 471,113 moves a second "
                    "of CPU, a socket round trip to another process takes 49 µs (20 µs of "
                    "CPU) before the run")
    assert host.engine_build() in {"compiled", "plain Python"}


def test_the_load_benchmark_names_the_python_of_the_client_and_of_each_watched_group():
    sleeper = subprocess.Popen(["sleep", "30"])  # not Python: left out
    try:
        line = loadtest.python_line({"web": [os.getpid()], "other": [sleeper.pid]})
    finally:
        sleeper.kill()
        sleeper.wait()
    ours = host.interpreter()
    assert line == f"python: load client {ours}, web {ours}"
    exe, _, how = ours.partition(" (libpython ")
    assert exe == os.path.realpath(sys.executable)
    assert how in {"shared)", "static)"}
    # the libpython in this process's maps says which
    linked = any("/libpython" in entry for entry in Path("/proc/self/maps").read_text().split())
    assert how == ("shared)" if linked else "static)")


def _children() -> set[str]:
    return {pid for task in Path("/proc/self/task").iterdir()
            for pid in (task / "children").read_text().split()}


def test_a_socket_round_trip_to_another_process_is_timed_and_the_process_ends():
    before = _children()
    wall, cpu = host.socket_round_trip(0.05)
    assert 0 < cpu and 0 < wall < 1e6  # µs a round trip, the mean of many
    assert _children() == before


def test_the_watch_asks_a_socket_left_behind_for_its_view_and_calls_a_silent_table_stalled():
    class Socket:
        closed = False

        def __init__(self):
            self.sent = []

        async def send_str(self, text):
            self.sent.append(text)

    async def scenario():
        args = SimpleNamespace(seconds=60, request_timeout=30)
        run = loadtest.Run(args)
        game = loadtest.Game(run, None, 0, ["t"] * 4, ["http://127.0.0.1:1"])
        game.game_id, game.sockets = 7, [Socket() for _ in range(4)]
        game.latest = [{"seq": 5}, None, None, None]
        game.reached = [5, 5, 5, 3]  # the last socket has not shown seq 4 and 5
        game.progress = game.stalled_since = 0.0
        game.behind_since = [None] * 4
        game.watch(1.0)  # behind from now on
        game.watch(1.0 + loadtest.RESYNC_SECONDS / 2)
        assert run.resyncs == 0
        game.watch(1.0 + loadtest.RESYNC_SECONDS + 0.1)
        await asyncio.sleep(0)  # the sync is sent by a task of its own
        assert run.resyncs == 1 and game.sockets[3].sent == ['{"type":"sync"}']
        assert [s.sent for s in game.sockets[:3]] == [[], [], []]
        assert not run.faults
        game.watch(loadtest.STALL_SECONDS + 1)  # nothing new anywhere since 0.0
        assert run.faults["stalled"] == 1
        run.http.close()

    asyncio.run(scenario())


def test_the_handoff_benchmark_prices_both_ways_to_a_request_thread():
    out = subprocess.run([sys.executable, "-m", "bench.handoff", "--calls", "200", "--runs", "1"],
                         capture_output=True, text=True, check=True, timeout=300,
                         cwd=Path(__file__).resolve().parents[1]).stdout.splitlines()
    assert [line.split("  ")[0] for line in out] == [
        "run_in_executor + ThreadPoolExecutor", "http_threads.Threads"]
    assert all("µs of CPU a call (best of 1)" in line for line in out)


def test_the_handoff_benchmark_refuses_a_bad_count_before_it_runs():
    done = subprocess.run([sys.executable, "-m", "bench.handoff", "--calls", "0"],
                          capture_output=True, text=True, timeout=300,
                          cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2 and "--calls" in done.stderr


def test_movebench_deals_moves_among_simulated_processes_each_with_states_of_its_own():
    from bench.movebench import _Processes
    from games import state_cache

    held = state_cache._cache, state_cache._facts
    try:
        processes = _Processes(2)
        processes.for_post()  # the first move, on process 0
        state_cache.put(1, 5, "after move 5", facts=["said"])
        processes.for_get()  # the next mover reads the view where the last move was made
        assert state_cache.get(1, 5) == "after move 5"
        assert state_cache.facts(1, 5) == ["said"]
        processes.for_post()  # and posts to the other process, which holds none of it
        assert state_cache.get(1, 5) is None and state_cache.facts(1, 5) is None
    finally:
        state_cache._cache, state_cache._facts = held
