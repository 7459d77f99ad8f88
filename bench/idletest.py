"""Idle sockets drill: open N sockets to one game, keep them quiet, count who is still open.

    python -m bench.idletest --sockets 1000 --seconds 120 --tokens tokens.txt \\
        --pid DAPHNE_PID http://127.0.0.1:8301
    python -m bench.idletest --sockets 1 --seconds 660 --tokens tokens.txt URL  # >= 10 min

The sockets send nothing at all (no ping) unless --ping is given. With --pid (a web
process on this machine) it prints that process's memory before and after the sockets
opened and its CPU use while they sat idle. Exit status 0 when every socket stayed open.
"""

import argparse
import asyncio
import os
import sys
import time

import aiohttp

from bench.procs import cpu_seconds


def _proc(pid: int) -> tuple[float, float]:
    """(resident MB, CPU seconds) of a process, from /proc."""
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:")) / 1024
    return rss, cpu_seconds(pid)


async def main_async(args) -> int:
    token = open(args.tokens).readline().strip()
    url = args.url.rstrip("/")
    auth = {"Authorization": f"Bearer {token}"}
    closed: list[str] = []
    opened = 0
    before = _proc(args.pid) if args.pid else None
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0)) as session:
        async with session.post(f"{url}/api/v1/games", json={"players": 4}, headers=auth) as r:
            game_id = (await r.json())["id"]  # a table waiting for players: nothing moves
        ws_url = url.replace("http", "ws", 1) + f"/ws/games/{game_id}/?token={token}"

        async def hold(i: int):
            try:
                await hold_open(i)
            except (aiohttp.ClientError, OSError, TimeoutError) as e:
                closed.append(f"socket {i}: {e!r}")

        async def hold_open(i: int):
            nonlocal opened
            async with session.ws_connect(ws_url, autoping=True, heartbeat=None) as ws:
                first = await ws.receive(timeout=60)
                if first.type != aiohttp.WSMsgType.TEXT:
                    closed.append(f"socket {i}: {first.type.name} on connect")
                    return
                opened += 1
                while True:
                    wait = 25 if args.ping else None
                    try:
                        msg = await ws.receive(timeout=wait)
                    except TimeoutError:
                        await ws.send_json({"type": "ping"})
                        continue
                    if msg.type != aiohttp.WSMsgType.TEXT:
                        closed.append(f"socket {i}: {msg.type.name} {ws.close_code} "
                                      f"after {time.monotonic() - t0:.0f} s")
                        return

        t0 = time.monotonic()
        tasks = []
        for i in range(args.sockets):
            tasks.append(asyncio.create_task(hold(i)))
            await asyncio.sleep(1 / args.rate)  # a steady stream of handshakes, not a burst
        while opened + len(closed) < args.sockets and time.monotonic() - t0 < 600:
            await asyncio.sleep(0.5)
        opened_in = time.monotonic() - t0
        settled = _proc(args.pid) if args.pid else None
        await asyncio.sleep(args.seconds)
        after = _proc(args.pid) if args.pid else None
        still = sum(1 for t in tasks if not t.done())
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        async with session.post(f"{url}/api/v1/games/{game_id}/leave", headers=auth):
            pass  # the table closes: no waiting table left behind
    print(f"{args.sockets} sockets to game {game_id}, {opened} opened in {opened_in:.1f} s, "
          f"idle {args.seconds:.0f} s ({'ping every 25 s' if args.ping else 'no message at all'})"
          f": {still} still open, {len(closed)} closed")
    for line in closed[:5]:
        print("  " + line)
    if before and settled and after:
        print(f"web process {args.pid}: {before[0]:.0f} MB before, {settled[0]:.0f} MB with "
              f"the sockets open ({(settled[0] - before[0]) * 1024 / max(opened, 1):.0f} KB "
              f"a socket), {after[0]:.0f} MB at the end; CPU while idle "
              f"{100 * (after[1] - settled[1]) / args.seconds:.1f}% of a core")
    print(f"load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    return 0 if still == args.sockets == opened else 1


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bench.idletest", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("url", metavar="URL")
    parser.add_argument("--sockets", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=60)
    parser.add_argument("--tokens", required=True, help="the first token opens every socket")
    parser.add_argument("--pid", type=int, help="a web process to measure (same machine)")
    parser.add_argument("--ping", action="store_true", help="send the 25 s heartbeat")
    parser.add_argument("--rate", type=float, default=20, help="new sockets a second")
    return asyncio.run(main_async(parser.parse_args(argv)))


if __name__ == "__main__":
    sys.exit(main())
