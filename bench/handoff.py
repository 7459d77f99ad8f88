"""CPU a request's trip to a request thread and back costs a web process: asyncio's
run_in_executor with a ThreadPoolExecutor against blaze_site.http_threads.Threads.

    python -m bench.handoff [--calls 20000] [--in-flight 4] [--runs 5]

Each call hands a trivial function to one of two threads, as the web process hands each
request to Django; the process's CPU time over the calls, divided by them, is the price of
the trip (the best of --runs, on uvloop as the web runs).
"""

import argparse
import asyncio
import time
from concurrent.futures import ThreadPoolExecutor

import uvloop

from blaze_site.http_threads import Threads


def _noop(x):
    return x


async def _drive(call, calls: int, in_flight: int) -> float:
    async def one_stream(n):
        for i in range(n):
            await call(_noop, i)

    each = calls // in_flight
    started = time.process_time()
    await asyncio.gather(*(one_stream(each) for _ in range(in_flight)))
    return (time.process_time() - started) / (each * in_flight) * 1e6


def _executor_call(pool):
    def call(fn, arg):  # a plain function returning the awaitable, as Threads.run is
        return asyncio.get_running_loop().run_in_executor(pool, fn, arg)
    return call


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--calls", type=int, default=20000)
    parser.add_argument("--in-flight", type=int, default=4)
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    if args.calls < args.in_flight or args.in_flight < 1 or args.runs < 1:
        parser.error("--in-flight and --runs must be 1 or more, and --calls at least --in-flight")
    pool, threads = ThreadPoolExecutor(2), Threads(2, "bench")
    ways = {"run_in_executor + ThreadPoolExecutor": _executor_call(pool),
            "http_threads.Threads": threads.run}
    best = {name: float("inf") for name in ways}
    for _ in range(args.runs):  # interleaved, so a drift of the machine hits both
        for name, call in ways.items():
            micros = uvloop.run(_drive(call, args.calls, args.in_flight))
            best[name] = min(best[name], micros)
    for name, micros in best.items():
        print(f"{name:40s} {micros:6.1f} µs of CPU a call (best of {args.runs})")


if __name__ == "__main__":
    main()
