"""Load benchmark: live four-player games played through the public API, one socket per
seat, as fast as the server answers (or, with --think, at a player's pace).

    python manage.py blaze_loadtest_users --count 800 --out tokens.txt    # local run
    python -m bench.loadtest --games 200 --seconds 60 --tokens tokens.txt \\
        http://127.0.0.1:8301 http://127.0.0.1:8302

Each game's four players are four distinct users (four tokens from the file, one a
line). Seat k of game g holds its socket on URL number g+k and posts its moves to URL
number g+k+1 (modulo the URLs given), so with two URLs every move travels between
processes. A seat moves as soon as its socket's view says the game waits on it.

Figures cover the moves sent within --seconds; then the games under way are played to
their end (at most --drain seconds, not counted) and every finished game's exported
record is replayed and checked against its final scores.

Without --think every table moves as soon as the last answer is in: the run finds the
site's capacity, and latencies are then queueing (Little's law: tables / moves per second
is the time a move cycle takes, so 200 tables at 400 moves/s means 500 ms a move however
fast the site). With --think MS, players pause about MS before each move, as people do:
latencies then show what a player feels at that pace.

moves/s    committed moves per second (409 answers to simultaneous moves are not moves)
POST       time to answer a move
push       from sending a move until each seat's socket holds a view at or past its seq
faults     answers other than 200/409, socket drops, games that stalled, views missing
host       the host's speed before the run (bench.host), a rough guide for comparing runs
"""

import argparse
import asyncio
import contextlib
import gc
import os
import random
import resource
import sys
import time
from collections import Counter

import aiohttp
import orjson

from bench import host
from bench.http1 import Http1
from bench.procs import cpu_seconds, host_ticks
from blaze_site import gc_tuning
from games.bots import choose_move
from games.engine import RecordError, import_record

STALL_SECONDS = 30.0
RESYNC_SECONDS = 5.0
PING_SECONDS = 25.0
PING_TEXT = '{"type":"ping"}'  # as the table page sends it, encoded once
# a lost socket tries again as the table page does (static/js/table/socket.js: 1 s, 2 s,
# 4 s ... at most 30 s), each pause spread by half either way as devices' clocks are
RECONNECT_FIRST_SECONDS, RECONNECT_MAX_SECONDS = 1.0, 30.0


async def _resync(ws) -> None:
    try:
        await ws.send_str('{"type":"sync"}')
    except (ConnectionError, aiohttp.ClientError):
        pass


async def _watchdog(run) -> None:
    """Every table's watch, once a second, from one task (a task a table woke a thousand
    times a second at 1,000 tables: a tenth of the client's CPU, which the server shares)."""
    while True:
        await asyncio.sleep(1)
        now = time.monotonic()
        for game in list(run.watched):
            game.watch(now)


class Run:
    def __init__(self, args):
        self.args = args
        self.t0 = time.monotonic()
        self.window_end = self.t0 + args.seconds
        self.post_ms: list[float] = []
        self.post_at: list[float] = []  # when each counted POST was sent (--timeline)
        self.lags: dict[int, float] = {}  # --timeline's slice -> the client loop's longest lag
        self.samples: list[tuple] = []  # --timeline: (watched CPU, host ticks) at each slice's edge
        self.push_ms: list[float] = []
        self.moves = 0
        self.conflicts = 0
        self.faults: Counter = Counter()
        self.finished = 0
        self.records_ok = 0
        self.records_bad: list[str] = []
        self.reconnects = 0
        self.resyncs = 0
        self.window_start = float("inf")
        self.ready = 0               # games whose four sockets hold their first view
        self.all_ready = asyncio.Event()
        self.closing = False
        self.http = Http1(args.request_timeout)  # the requests; the sockets are aiohttp's
        self.watched: set = set()  # tables under way, for the watchdog
        self._spawned: set = set()

    def spawn(self, coroutine) -> None:
        """Run it on its own, held until it ends (the loop keeps only weak references)."""
        task = asyncio.create_task(coroutine)
        self._spawned.add(task)
        task.add_done_callback(self._spawned.discard)

    def in_window(self, t: float) -> bool:
        return self.window_start <= t <= self.window_end

    def game_ready(self) -> None:
        self.ready += 1
        if self.ready == self.args.games:
            self.all_ready.set()

    def fault(self, kind: str, detail: str = "") -> None:
        if self.closing:
            return  # sockets and requests cut by the end of the run
        self.faults[kind] += 1
        if self.faults[kind] <= 3:
            print(f"fault {kind}: {detail}"[:300], file=sys.stderr)


class Game:
    """One table: four players, their sockets, and the bookkeeping of push times."""

    def __init__(self, run: Run, session, index: int, tokens: list[str], urls: list[str]):
        self.run, self.session, self.index = run, session, index
        self.tokens = tokens
        n = len(urls)
        self.ws_urls = [urls[(index + k) % n] for k in range(4)]
        self.post_urls = [urls[(index + k + 1) % n] for k in range(4)]
        self.rng = random.Random(index)
        self.game_id: int | None = None
        self.counted_ready = False

    def _auth(self, k: int) -> dict:
        return {"Authorization": f"Bearer {self.tokens[k]}"}

    async def _post(self, k: int, path: str, body: dict | None = None):
        status, raw = await self.run.http.request(
            "POST", self.post_urls[k] + path, orjson.dumps(body or {}), self._auth(k))
        try:
            return status, orjson.loads(raw)
        except orjson.JSONDecodeError:  # not JSON (a proxy's error page): said as it came
            return status, raw.decode("utf-8", "replace")

    async def play_forever(self, stop_starting: asyncio.Event):
        # tables open one after another over --ramp seconds, as a site fills (not all at once)
        await asyncio.sleep(self.run.args.ramp * self.index / self.run.args.games)
        while not stop_starting.is_set():
            try:
                await self.play_one()
            except (TimeoutError, aiohttp.ClientError, OSError) as e:
                self.run.fault("connection", repr(e))
                await asyncio.sleep(1)

    async def play_one(self):
        run = self.run
        status, body = await self._post(0, "/api/v1/games", {
            "players": 4, "time_control": {"kind": "live", "minutes": 10}})
        if status != 201:
            run.fault(f"create {status}", str(body))
            await asyncio.sleep(1)
            return
        self.game_id = body["id"]
        for k in (1, 2, 3):
            status, body = await self._post(k, f"/api/v1/games/{self.game_id}/join")
            if status != 200:
                run.fault(f"join {status}", str(body))
                for seated in range(k):  # leave the half-filled table: no quota spent
                    await self._post(seated, f"/api/v1/games/{self.game_id}/leave")
                await asyncio.sleep(1)
                return
        self.latest = [None] * 4          # newest view known to seat k (socket or answer)
        self.reached = [-1] * 4           # highest seq each socket has shown
        self.arrival = [dict() for _ in range(4)]  # seat -> seq -> when its socket got it
        self.sent: list[tuple[int, float]] = []   # (seq made, when sent) of own moves
        self.changed = [asyncio.Event() for _ in range(4)]
        self.sockets = [None] * 4
        self.done = asyncio.Event()
        self.progress = self.stalled_since = time.monotonic()
        self.behind_since: list[float | None] = [None] * 4
        readers = [asyncio.create_task(self._socket(k)) for k in range(4)]
        players = [asyncio.create_task(self._player(k)) for k in range(4)]
        run.watched.add(self)
        try:
            await self.done.wait()
            # the mover may know the end from its answer before its socket shows it: give
            # every socket a moment to show the last view before counting it missing
            last = max(v["seq"] for v in self.latest if v is not None)
            for _ in range(50):
                if min(self.reached) >= last:
                    break
                await asyncio.sleep(0.1)
        finally:  # the game ended, or the run did
            run.watched.discard(self)
            for task in readers + players:
                task.cancel()
            await asyncio.gather(*readers, *players, return_exceptions=True)
        self._settle_push(final=True)
        final = max((v for v in self.latest if v), key=lambda v: v["seq"])
        if final["status"] == "finished":
            await self._check_record(final)
            run.finished += 1  # after the check: the drain's end may cut it short

    async def _socket(self, k: int):
        url = self.ws_urls[k].replace("http", "ws", 1)
        url += f"/ws/games/{self.game_id}/?token={self.tokens[k]}"
        first = True
        pause = RECONNECT_FIRST_SECONDS
        while not self.done.is_set():
            try:
                async with self.session.ws_connect(url, max_msg_size=0) as ws:
                    self.sockets[k] = ws
                    if not first:
                        self.run.reconnects += 1
                    first = False
                    pause = RECONNECT_FIRST_SECONDS
                    pinger = asyncio.create_task(self._pinger(ws))
                    try:
                        async for msg in ws:
                            if msg.type != aiohttp.WSMsgType.TEXT:
                                break
                            self._on_message(k, msg.json(loads=orjson.loads))
                    finally:
                        pinger.cancel()
                if not self.done.is_set():
                    self.run.fault("socket closed", f"game {self.game_id} seat {k}")
            except (TimeoutError, aiohttp.ClientError, OSError) as e:
                self.run.fault("socket error", repr(e))
            if not self.done.is_set():  # reconnect, then resync
                await asyncio.sleep(pause * (0.5 + self.rng.random()))
                pause = min(pause * 2, RECONNECT_MAX_SECONDS)

    async def _pinger(self, ws):
        while True:
            await asyncio.sleep(PING_SECONDS)
            await ws.send_str(PING_TEXT)

    def _on_message(self, k: int, message: dict):
        if message.get("type") != "view":
            if message.get("type") == "error":
                self.run.fault("socket error message", message.get("error", ""))
            return
        view = message["view"]
        now = time.monotonic()
        seq = view["seq"]
        if self.reached[k] < 0 and min(self.reached[:k] + self.reached[k + 1:]) >= 0 \
                and not self.counted_ready:
            self.counted_ready = True
            self.run.game_ready()
        if seq > self.reached[k]:
            for q in range(self.reached[k] + 1, seq + 1):
                self.arrival[k][q] = now
            self.reached[k] = seq
            self.progress = now
        self._learn(k, view)
        if view["status"] != "playing" and all(
                v is not None and v["status"] != "playing" for v in self.latest):
            self.done.set()

    def _learn(self, k: int, view: dict):
        if self.latest[k] is None or view["seq"] >= self.latest[k]["seq"]:
            self.latest[k] = view
            self.changed[k].set()

    async def _player(self, k: int):
        run = self.run
        posted_at = -1
        while True:
            await self.changed[k].wait()
            self.changed[k].clear()
            view = self.latest[k]
            seat = view["you"]
            if view["status"] != "playing" or seat is None:
                continue
            if seat not in view["waiting_on"] or "options" not in view or \
                    view["seq"] <= posted_at:
                continue
            if run.args.think > 0:
                # a player's pause, 0.5-1.5 times the mean, so the tables do not move in step
                await asyncio.sleep(run.args.think / 1000 * (0.5 + self.rng.random()))
                if self.latest[k] is not view:
                    self.changed[k].set()  # the game moved on meanwhile: look again
                    continue
            posted_at = view["seq"]
            move = {key: v for key, v in choose_move(view, seat, self.rng, "random").items()
                    if key != "seat"}
            t0 = time.monotonic()
            try:
                status, body = await self._post(
                    k, f"/api/v1/games/{self.game_id}/moves", {"seq": view["seq"], "move": move})
            except (TimeoutError, aiohttp.ClientError, OSError) as e:
                run.fault("post error", repr(e))
                posted_at = -1  # try again once the server answers
                await asyncio.sleep(0.5)
                self.changed[k].set()
                continue
            t1 = time.monotonic()
            if run.in_window(t0):
                run.post_ms.append((t1 - t0) * 1000)
                run.post_at.append(t0)
            if status == 200:
                self.sent.append((body["seq"], t0))
                if run.in_window(t0):
                    run.moves += 1
                self._learn(k, body)
                self._settle_push()
            elif status == 409:
                # Another seat's move came first: its view is on its way to this socket
                # (or already here), so nothing is fetched; a socket left behind asks for
                # its view again (the watchdog), as a client that missed a seq would.
                run.conflicts += 1
            else:
                run.fault(f"move {status}", str(body))
                if status >= 500:  # nothing was played: try again, as a client would
                    posted_at = -1
                    await asyncio.sleep(0.5)
                    self.changed[k].set()

    def _settle_push(self, final: bool = False):
        keep = []
        for seq, t0 in self.sent:
            if all(seq in self.arrival[k] for k in range(4)):
                if self.run.in_window(t0):
                    self.run.push_ms.extend((self.arrival[k][seq] - t0) * 1000
                                            for k in range(4))
            elif final:
                self.run.fault("view missing", f"game {self.game_id} seq {seq}")
            else:
                keep.append((seq, t0))
        self.sent = keep

    def watch(self, now: float) -> None:
        """Once a second (the run's watchdog, one task for every table): a socket that has
        not shown a seq the game is known to have reached (by another socket or a move's
        answer) for RESYNC_SECONDS asks for its view again, as a client that missed a view
        would (it may have been lost while Redis was away); nothing new anywhere for
        STALL_SECONDS is a fault."""
        known = max((v["seq"] for v in self.latest if v is not None), default=-1)
        for k, ws in enumerate(self.sockets):
            if self.reached[k] >= known:
                self.behind_since[k] = None
            elif self.behind_since[k] is None:
                self.behind_since[k] = now
            elif now - self.behind_since[k] > RESYNC_SECONDS and ws is not None \
                    and not ws.closed:
                self.behind_since[k] = now
                self.run.resyncs += 1
                self.run.spawn(_resync(ws))
        if self.progress != self.stalled_since:
            self.stalled_since = self.progress
        elif now - self.stalled_since > STALL_SECONDS:
            self.run.fault("stalled", f"game {self.game_id}")
            self.stalled_since = self.progress = time.monotonic()

    async def _check_record(self, final: dict):
        url = self.post_urls[0] + f"/api/v1/games/{self.game_id}/record"
        async with self.session.get(url, headers=self._auth(0)) as r:
            record = await r.json(content_type=None, loads=orjson.loads)
        try:
            state = import_record(record)
        except RecordError as e:
            self.run.records_bad.append(f"game {self.game_id}: {e}")
            return
        if state.finished and state.scores == final["scores"]:
            self.run.records_ok += 1
        else:
            self.run.records_bad.append(f"game {self.game_id}: scores differ")


def _cpu_all(watched: dict[str, list[int]]) -> dict[str, float]:
    """CPU seconds so far: this client's own, and each watched group of processes."""
    own = resource.getrusage(resource.RUSAGE_SELF)
    out = {"load client": own.ru_utime + own.ru_stime}
    for name, pids in watched.items():
        total = 0.0
        for pid in pids:
            try:
                total += cpu_seconds(pid)
            except OSError:
                pass  # gone meanwhile
        out[name] = total
    return out


def _watched(specs: list[str]) -> dict[str, list[int]]:
    """NAME=PID,PID... or NAME=@TEXT: the processes whose command line starts with TEXT,
    found when the window opens (database backends start during the set-up)."""
    out: dict[str, list[int]] = {}
    for spec in specs:
        name, _, pids = spec.partition("=")
        if pids.startswith("@"):
            found = _pids_starting(pids[1:])
        else:
            found = [int(p) for p in pids.split(",") if p]
        out.setdefault(name, []).extend(found)
    return out


def _pids_starting(text: str) -> list[int]:
    found = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    line = f.read().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            if line.startswith(text):
                found.append(int(entry))
    return found


def _print_timeline(run: Run, step: float) -> None:
    """POST latencies slice by slice of the window: a tail made in bursts (a periodic job,
    a pause of the server) shows as a few bad slices, saturation as all of them. The
    client's own longest stall in each slice says whether it was the client; the watched
    processes' CPU a move and the host's steal say whether a slow slice cost more work or
    found fewer cycles."""
    slices: dict[int, list[float]] = {}
    for at, ms in zip(run.post_at, run.post_ms):
        slices.setdefault(int((at - run.window_start) // step), []).append(ms)
    for i in sorted(slices):
        ms = slices[i]
        print(f"  {i * step:5.0f}-{(i + 1) * step:<5.0f} s  moves/s {len(ms) / step:6.1f}  "
              f"POST ms p50 {_pct(ms, 50):>5}  p95 {_pct(ms, 95):>5}  max {max(ms):6.0f}  "
              f"client stall ms {run.lags.get(i, 0.0):4.0f}" + _slice_cpu(run, i, len(ms)))


def _slice_cpu(run: Run, i: int, moves: int) -> str:
    if i + 1 >= len(run.samples):
        return ""
    (cpu0, (steal0, all0)), (cpu1, (steal1, all1)) = run.samples[i], run.samples[i + 1]
    used = {name: cpu1[name] - cpu0[name] for name in cpu1}
    per_move = 1000 / max(moves, 1)
    web = f"web {used['web'] * per_move:.1f} " if "web" in used else ""
    return (f"  CPU ms a move {web}all {sum(used.values()) * per_move:.1f}"
            f"  steal {100 * (steal1 - steal0) / max(all1 - all0, 1):.0f}%")


async def _sample_cpu(run: Run, step: float, watched: dict[str, list[int]]) -> None:
    """The watched processes' CPU and the host's ticks at each --timeline slice's edge."""
    start = time.monotonic()
    while True:
        run.samples.append((_cpu_all(watched), host_ticks()))
        await asyncio.sleep(start + len(run.samples) * step - time.monotonic())


async def _watch_lag(run: Run, step: float, every: float = 0.02) -> None:
    """Note, for each --timeline slice, the longest the client's event loop came late to a
    short sleep: its own stalls, which delay every simulated player at once."""
    while True:
        asked = time.monotonic()
        await asyncio.sleep(every)
        now = time.monotonic()
        if run.in_window(asked):
            i = int((asked - run.window_start) // step)
            run.lags[i] = max(run.lags.get(i, 0.0), (now - asked - every) * 1000)


@contextlib.contextmanager
def collector_paused():
    """The client's garbage collector off for the window, its garbage collected after
    (the list yielded then holds how many objects). At 1,000 tables a collection of the
    client walked every view its 4,000 sockets held, 0.2-0.5 s every few seconds: every
    simulated player stopped at once, then sent its moves in one burst, a load no crowd
    of separate devices makes (docs/live-play.md)."""
    garbage = [0]
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield garbage
    finally:
        if was_enabled:
            gc.enable()
        garbage[0] = gc.collect()


def python_line(watched: dict[str, list[int]]) -> str:
    """The interpreters: the client's, and the first of each watched group that runs
    Python (the web's and the worker's)."""
    found = {"load client": host.interpreter()}
    for name, pids in watched.items():
        for pid in pids[:1]:
            try:
                where = host.interpreter(pid)
            except OSError:
                continue  # gone, or not ours to read
            if where is not None:
                found[name] = where
    return "python: " + ", ".join(f"{name} {where}" for name, where in found.items())


def host_line(rate: float, trip: tuple[float, float]) -> str:
    """The host's speed before the run (bench.host): the engine's, and a socket round trip
    to another process (wall-clock and CPU µs). Not after: the site still answers what was
    queued then, and a busy twin core slows this one's instructions."""
    return (f"host: the engine ({host.engine_build()}) replays {rate:,.0f} moves a second "
            f"of CPU, a socket round trip to another process takes {trip[0]:.0f} µs "
            f"({trip[1]:.0f} µs of CPU) before the run")


def _seconds(text: str, *, zero: bool) -> float:
    """A finite number of seconds, above 0 (or 0 and more with `zero`), else refused."""
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not (0 <= value if zero else 0 < value) or value == float("inf"):
        raise argparse.ArgumentTypeError(
            f"a number of seconds{', 0 or more,' if zero else ' above 0,'} not {text!r}")
    return value


def _not_negative(text: str) -> float:
    return _seconds(text, zero=True)


def _positive(text: str) -> float:
    return _seconds(text, zero=False)


def _pct(values: list[float], p: float) -> str:
    if not values:
        return "-"
    values = sorted(values)
    return f"{values[min(len(values) - 1, int(p / 100 * len(values)))]:.0f}"


async def main_async(args) -> int:
    tokens = [t.strip() for t in open(args.tokens) if t.strip()]
    if len(tokens) < 4 * args.games:
        print(f"{args.tokens}: {len(tokens)} tokens, {4 * args.games} needed "
              "(four distinct users a game)", file=sys.stderr)
        return 2
    urls = [u.rstrip("/") for u in args.urls]
    # the site idle: the host's own speed
    host_speed = host.engine_replay_rate(), host.socket_round_trip()
    run = Run(args)
    load_before = os.getloadavg()
    connector = aiohttp.TCPConnector(limit=0, force_close=False)
    timeout = aiohttp.ClientTimeout(total=args.request_timeout)
    async with aiohttp.ClientSession(connector=connector, timeout=timeout) as session:
        games = [Game(run, session, i, tokens[4 * i:4 * i + 4], urls)
                 for i in range(args.games)]
        stop_starting = asyncio.Event()
        tasks = [asyncio.create_task(g.play_forever(stop_starting)) for g in games]
        watchdog = asyncio.create_task(_watchdog(run))
        # The window opens once every game is under way (created, joined, four sockets).
        try:
            await asyncio.wait_for(run.all_ready.wait(), args.setup_timeout)
        except TimeoutError:
            run.fault("setup", f"{run.ready} of {args.games} games under way in time")
        print(f"{run.ready} games under way after {time.monotonic() - run.t0:.1f} s; "
              f"measuring for {args.seconds:.0f} s"
              + (f" from {args.settle:.0f} s on" if args.settle else ""), file=sys.stderr)
        await asyncio.sleep(args.settle)
        run.window_start = time.monotonic()
        run.window_end = run.window_start + args.seconds
        watched = _watched(args.pid)
        cpu_before = _cpu_all(watched)
        timeline = [asyncio.create_task(_watch_lag(run, args.timeline)),
                    asyncio.create_task(_sample_cpu(run, args.timeline, watched))
                    ] if args.timeline else []
        with collector_paused() as garbage:
            await asyncio.sleep(args.seconds)
            await asyncio.sleep(0.01)  # the last slice's edge sampled
        for task in timeline:
            task.cancel()
        cpu_window = {k: v - cpu_before[k] for k, v in _cpu_all(watched).items()}
        stop_starting.set()
        load_window = os.getloadavg()
        done, pending = await asyncio.wait(tasks, timeout=args.drain)
        run.closing = True
        for task in pending:
            task.cancel()
        await asyncio.gather(*pending, return_exceptions=True)
        watchdog.cancel()
        await asyncio.gather(watchdog, return_exceptions=True)
        unfinished = len(pending)
    run.http.close()
    seconds = args.seconds
    pace = f"think {args.think:.0f} ms a move" if args.think else "no think time"
    print(f"games {args.games} (4 players, {len(urls)} URL(s), {pace}), window {seconds:.0f} s"
          f"{f' from {args.settle:.0f} s after the last table opened' if args.settle else ''}, "
          f"load average before {load_before[0]:.2f} {load_before[1]:.2f}, "
          f"end of window {load_window[0]:.2f} {load_window[1]:.2f}")
    print(host_line(*host_speed))
    print(python_line(watched))
    print(f"moves/s {run.moves / seconds:.1f}  ({run.moves} moves, "
          f"{run.conflicts} simultaneous-move 409s)")
    print(f"POST ms  p50 {_pct(run.post_ms, 50)}  p95 {_pct(run.post_ms, 95)}  "
          f"p99 {_pct(run.post_ms, 99)}  (n={len(run.post_ms)})")
    print(f"push ms  p50 {_pct(run.push_ms, 50)}  p95 {_pct(run.push_ms, 95)}  "
          f"p99 {_pct(run.push_ms, 99)}  (n={len(run.push_ms)})")
    if args.timeline:
        _print_timeline(run, args.timeline)
    faults = sum(run.faults.values())
    print(f"faults {faults}" + (f"  {dict(run.faults)}" if faults else "")
          + f"  reconnects {run.reconnects}  resyncs {run.resyncs}")
    print(f"records: {run.finished} games finished, {run.records_ok} replay to their scores, "
          f"{len(run.records_bad)} do not; {unfinished} left unfinished after the drain")
    if run.moves:
        print("CPU ms a move: " + ", ".join(
            f"{name} {sec * 1000 / run.moves:.1f}" for name, sec in cpu_window.items())
            + f"; all {sum(cpu_window.values()) * 1000 / run.moves:.1f}"
            + f" (of {os.cpu_count()} cores: {sum(cpu_window.values()) / seconds:.2f} busy)")
    print(f"client: collector paused for the window, {garbage[0]} objects of cyclic garbage "
          "collected after it")
    for line in run.records_bad[:5]:
        print("  " + line)
    return 0 if not faults and not run.records_bad else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.loadtest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("urls", nargs="+", metavar="URL", help="e.g. http://127.0.0.1:8000")
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tokens", required=True, help="a file of API tokens, one a line")
    parser.add_argument("--drain", type=float, default=300,
                        help="seconds to finish the games under way after the window")
    parser.add_argument("--think", type=float, default=0, metavar="MS",
                        help="a player's mean pause before each move (0: as fast as the "
                             "server answers); 200 tables with 800 ms offer about 250 moves/s")
    parser.add_argument("--pid", action="append", default=[], metavar="NAME=PID[,PID]",
                        help="processes on this machine whose CPU to count over the window "
                             "(web=123,124 or postgres=@postgres); the client counts "
                             "its own")
    parser.add_argument("--loop", choices=("uvloop", "asyncio"), default="uvloop",
                        help="the client's event loop: with uvloop (when installed) the client "
                             "takes about a tenth less CPU than with asyncio's, CPU it "
                             "shares with a server on the same machine")
    parser.add_argument("--request-timeout", type=float, default=30)
    parser.add_argument("--setup-timeout", type=float, default=120,
                        help="seconds for all games to be created and their sockets open")
    parser.add_argument("--timeline", type=_positive, default=0, metavar="SECONDS",
                        help="also print the POST latencies of each slice of the window "
                             "this long")
    parser.add_argument("--ramp", type=float, default=0, metavar="SECONDS",
                        help="open the tables one after another over this long (0: all at "
                             "once); the setup timeout counts from the start")
    parser.add_argument("--settle", type=_not_negative, default=0, metavar="SECONDS",
                        help="open the window this long after the last table is under way, "
                             "so it measures the site full rather than filling (the last "
                             "tables' sockets and reads still queued)")
    args = parser.parse_args(argv)
    # The client holds thousands of sockets and games: as in a web process, what exists
    # at start-up is left out of collections and young objects die before one (without
    # this the client took 1.8 ms of CPU a move at 1,000 tables, with it 1.2).
    gc_tuning.tune(10_000)
    return _run(main_async(args), args.loop)


def _run(main, loop: str) -> int:
    if loop == "uvloop":
        try:
            import uvloop
        except ImportError:
            print("uvloop is not installed (pip install -e '.[load]'): asyncio's loop",
                  file=sys.stderr)
        else:
            return uvloop.run(main)
    return asyncio.run(main)


if __name__ == "__main__":
    sys.exit(main())
