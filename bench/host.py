"""The host's speed at the moment of a benchmark: a rough guide for comparing runs of
different hours.

The same code's CPU a move moved by half and more from hour to hour on the shared 2-core
machines the figures come from (docs/live-play.md): the host, not the code. A benchmark
prints this rate beside its figures, measured in its own thread while the site is idle
(before the tables open): moves a second of CPU that the rules engine replays from fixed
records. It counts the thread's CPU time, not wall time, so a busy neighbour on the same
cores lowers it only by slowing each instruction, as it slows the site's. It follows the
web's speed loosely (a compiled loop slows less than the interpreter's walk through
Django on a loaded host), so runs at like rates compare, not figures scaled by it.

The live site's work is largely hops between processes (a request to PostgreSQL and Redis
and back, a push through Redis to each socket), and a host may slow those apart from its
compiled loops (session 23: the engine's rate as usual while the web's CPU a move was 40%
above session 20's). So a second figure, to set beside other sessions' (47-55 µs in
session 23, through a later slowdown of the engine's rate too): a one-byte round trip over
a socket to another process, in wall-clock microseconds and this process's CPU
microseconds.

The interpreter matters as much as an hour's drift: pyenv's default build (libpython a
shared library, no profile-guided optimization) ran the move path about a tenth slower
than Debian's python3.11 (linked statically, built with PGO); `interpreter` says which a
process runs.
"""

import os
import random
import socket
import subprocess
import sys
import time

from games.engine import export_record
from games.engine import state as _state_module
from games.engine.bench import random_game, replay_throughput

GAMES = 12  # four-player games of random play, the same ones every time


def _records() -> list[dict]:
    rng = random.Random(7)
    return [export_record(random_game(4, rng)[0], [f"p{i}" for i in range(4)])
            for _ in range(GAMES)]


def engine_build() -> str:
    """Which build of the engine this process runs: the compiled one replays about two and a
    half times as many moves."""
    return "plain Python" if _state_module.__file__.endswith(".py") else "compiled"


def engine_replay_rate(seconds: float = 1.0) -> float:
    """Moves the rules engine replays a second of this thread's CPU, over about
    `seconds` of it."""
    return replay_throughput(_records(), seconds, clock=time.thread_time)


def interpreter(pid: int | str = "self") -> str | None:
    """The Python a process on this machine runs: its executable, and whether libpython
    is a shared library in it ("shared") or linked into the executable ("static"); None
    when the process does not run Python."""
    exe = os.path.realpath(f"/proc/{pid}/exe")
    if "python" not in os.path.basename(exe):
        return None
    with open(f"/proc/{pid}/maps") as maps:
        shared = any("/libpython" in line for line in maps)
    return f"{exe} (libpython {'shared' if shared else 'static'})"


# the child answers each byte with the byte, until the socket closes
_ECHO = ("import socket, sys\n"
         "s = socket.socket(fileno=int(sys.argv[1]))\n"
         "while (b := s.recv(1)):\n"
         "    s.sendall(b)\n")


def socket_round_trip(seconds: float = 0.5) -> tuple[float, float]:
    """(wall-clock µs, µs of this thread's CPU) a one-byte round trip to another process
    over a socket, the mean over about `seconds`."""
    ours, theirs = socket.socketpair()
    child = subprocess.Popen([sys.executable, "-c", _ECHO, str(theirs.fileno())],
                             pass_fds=[theirs.fileno()])
    theirs.close()
    try:
        ours.sendall(b"x")  # the child started and answers
        if ours.recv(1) != b"x":
            raise RuntimeError("the echo process did not answer")
        trips, start, cpu = 0, time.perf_counter(), time.thread_time()
        while time.perf_counter() - start < seconds:
            for _ in range(100):
                ours.sendall(b"x")
                ours.recv(1)
            trips += 100
        wall, cpu = time.perf_counter() - start, time.thread_time() - cpu
    finally:
        ours.close()
        child.wait(10)
    return wall * 1e6 / trips, cpu * 1e6 / trips
