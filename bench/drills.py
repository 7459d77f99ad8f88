"""Fault drills on the site in its production shape (issue 28's targets).

    python -m bench.drills worker-kill   [--games 250] [--bot-games 20] [--target 60]
    python -m bench.drills redis-restart [--games 250] [--bot-games 20] [--outage 5] [--target 30]
    python -m bench.drills healthz       [--calls 5000] [--target-mb 10]

Common options: --database-url (default postgres://postgres@127.0.0.1:5432/blaze_drills,
dropped and created afresh, migrated, house bots added), --prefix (queue and channel-layer
names: q_<prefix>, p_<prefix>), --web (daphne processes), --run-dir (logs).

Every drill runs scripts/serve_many.sh (daphne, one Celery worker reading every queue of
the site and beat, both under scripts/supervise.py) on a private `redis-server --save ""
--appendonly no` on a free port (REDIS_URL, CACHE_URL and the broker: the shared Redis is
never stopped) with production settings and the default bot pause, budget and watchdog.

worker-kill: --games live games waiting on people (one person, two basic bots each) and
    --bot-games live games whose turn is a strong bot's (a person, two strong bots); once
    the strong bots think, SIGKILL the worker with its pool. The supervisor starts a new
    one; every game that waited on a bot must move again within --target s of its start.
redis-restart: the same games; Redis stopped for --outage s while the strong bots think,
    then started again (empty); every game that waited on a bot must move again within
    --target s of Redis's return, with no hand restarting anything.
healthz: --calls anonymous GET /healthz on one keep-alive connection; the daphne process's
    RSS must grow less than --target-mb MB (measured after a warm-up of 100 calls) and
    Redis's subscriptions (PUBSUB CHANNELS, NUMSUB) must not grow.

Prints the figures; exits 1 when a target is missed. A benchmark, not a test: figures
depend on the machine and its load (the load average is printed).
"""

import argparse
import http.client
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from bench import drill_stack as stack

LIVE = {"kind": "live", "minutes": 30}


def parse(argv: list[str]) -> argparse.Namespace:
    p = argparse.ArgumentParser(prog="python -m bench.drills",
                                description=__doc__.split("\n\n")[0])
    p.add_argument("drill", choices=["worker-kill", "redis-restart", "healthz"])
    p.add_argument("--database-url",
                   default="postgres://postgres@127.0.0.1:5432/blaze_drills")
    p.add_argument("--prefix", default="drills_bench")
    p.add_argument("--web", type=int, default=1, help="daphne processes")
    p.add_argument("--run-dir", type=Path, help="logs (default: a temporary folder)")
    p.add_argument("--games", type=int, default=250, help="games waiting on people")
    p.add_argument("--bot-games", type=int, default=20, help="games waiting on a strong bot")
    p.add_argument("--outage", type=float, default=5.0, help="seconds without Redis")
    p.add_argument("--target", type=float, help="seconds (default 60 worker-kill, 30 redis)")
    p.add_argument("--calls", type=int, default=5000)
    p.add_argument("--target-mb", type=float, default=10.0)
    args = p.parse_args(argv)
    if args.target is None:
        args.target = 60.0 if args.drill == "worker-kill" else 30.0
    if args.web < 1:
        p.error("--web: at least one daphne process")
    return args


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (nearest rank) of values; 0 for none."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(1, -(-len(ordered) * q // 100))  # ceil(n*q/100)
    return ordered[int(rank) - 1]


def context() -> str:
    commit = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=stack.ROOT,
                            capture_output=True, text=True).stdout.strip()
    load = " ".join(f"{x:.2f}" for x in os.getloadavg())
    return (f"{time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}, commit {commit}, "
            f"load average {load}, {os.cpu_count()} cores")


# ---- games (Django: after _django_setup) --------------------------------------------------


def _django_setup(env: dict) -> None:
    os.environ.update(env)
    import django

    django.setup()


def _people(n: int) -> list:
    from accounts.models import User

    users = [User(username=f"drill{i}", email=f"drill{i}@example.com") for i in range(n)]
    for user in users:
        user.set_unusable_password()
    return User.objects.bulk_create(users)


def _game_create(user, bots: list[str], *, bot_turn: bool):
    """A live table of `user` and `bots` (games.services.game_create), dealt again until
    its first turn is a bot's (bot_turn) or the person's: the other deals roll back."""
    from django.db import transaction

    from games.services import game_create

    while True:
        with transaction.atomic():
            game = game_create(creator=user, players=1 + len(bots), time_control=LIVE,
                               bots=bots, quotas=False)
            if (game.bot_turn_since is not None) == bot_turn:
                return game
            transaction.set_rollback(True)


def games_build(people: int, bot_games: int) -> list[int]:
    """`people` games waiting on a person, then `bot_games` waiting on a strong bot (their
    turns queued to the worker); returns the latter's ids."""
    users = _people(people + bot_games)
    for user in users[:people]:
        _game_create(user, ["basic", "basic"], bot_turn=False)
    return [_game_create(user, ["strong", "strong"], bot_turn=True).pk
            for user in users[people:]]


def waiting_on_bots() -> dict:
    """{game id: seq} of every playing game whose turn is a bot's."""
    from games.models import Game

    return dict(Game.objects.filter(status=Game.PLAYING, bot_turn_since__isnull=False)
                .values_list("pk", "seq"))


def waiting_on_people() -> int:
    from games.models import Game

    return Game.objects.filter(status=Game.PLAYING, bot_turn_since__isnull=True).count()


def held_bot_turns(redis_url: str, prefix: str) -> int:
    """Bot turns a worker holds now, unacknowledged (kombu's `unacked` hash)."""
    import redis

    queue = f"q_{prefix}.bots"
    raw = redis.Redis.from_url(redis_url).hvals("unacked")
    return sum(json.loads(r)[2] == queue for r in raw)


def moved_times(before: dict, t0: float, timeout: float) -> dict:
    """Poll until every game of `before` moved past its seq (or ended); {id: seconds from
    t0 to when it was first seen moved (0 if before t0)}. Games never seen moved are left
    out."""
    from games.models import Game

    seen: dict = {}
    end = time.monotonic() + timeout
    while len(seen) < len(before) and time.monotonic() < end:
        rows = Game.objects.filter(pk__in=set(before) - set(seen)).values_list(
            "pk", "seq", "status")
        now = time.monotonic()
        for pk, seq, status in rows:
            if seq > before[pk] or status != Game.PLAYING:
                seen[pk] = max(0.0, now - t0)
        time.sleep(0.2)
    return seen


def report_moves(name: str, before: dict, seen: dict, target: float, extra: str) -> bool:
    times = list(seen.values())
    ok = len(seen) == len(before) and bool(before) and max(times) <= target
    print(f"{name}: {len(before)} games waited on a bot at the fault; {len(seen)} moved again "
          f"({len(before) - len(seen)} stuck); {extra}")
    if times:
        print(f"  time to move again: max {max(times):.1f} s, p95 {percentile(times, 95):.1f} s,"
              f" median {statistics.median(times):.1f} s (target: all within {target:g} s)")
    print(f"  {'PASS' if ok else 'MISS'}")
    return ok


def _strong_bots_think(args, redis_url: str) -> int:
    """Wait until the strong bots' turns are held by the worker past their pause."""
    from django.conf import settings

    held = stack.wait_until(lambda: held_bot_turns(redis_url, args.prefix) >= 2, 60)
    time.sleep(settings.BOT_PAUSE_SECONDS + 0.5)  # the pause is over: they think now
    return held_bot_turns(redis_url, args.prefix) if held else 0


# ---- drills ---------------------------------------------------------------------------------


def drill_worker_kill(args, site: stack.Site, redis: stack.Redis) -> bool:
    games_build(args.games, args.bot_games)
    print(f"built: {waiting_on_people()} live games waiting on people, {args.bot_games} "
          f"with a strong bot's turn")
    held = _strong_bots_think(args, redis.url)
    dead = site.worker_kill()
    before = waiting_on_bots()  # nothing moves now: the worker is gone
    print(f"killed worker {dead} (SIGKILL, with its pool) holding {held} bot turns")
    if not stack.wait_until(lambda: site.worker() not in (None, dead), 120, interval=0.02):
        sys.exit(f"no new worker started:\n{site.logs()}")
    t0 = time.monotonic()
    print(f"new worker {site.worker()} started")
    seen = moved_times(before, t0, timeout=max(3 * args.target, 180))
    return report_moves("worker-kill", before, seen, args.target,
                        f"{waiting_on_people()} games waiting on people now")


def drill_redis_restart(args, site: stack.Site, redis: stack.Redis) -> bool:
    games_build(args.games, args.bot_games)
    print(f"built: {waiting_on_people()} live games waiting on people, {args.bot_games} "
          f"with a strong bot's turn")
    held = _strong_bots_think(args, redis.url)
    before = waiting_on_bots()
    restarts = site.restarts()
    redis.stop()
    print(f"Redis stopped ({held} bot turns held by the worker)")
    time.sleep(args.outage)
    redis.start()
    t0 = time.monotonic()
    print(f"Redis started again after {args.outage:g} s")
    seen = moved_times(before, t0, timeout=max(3 * args.target, 180))
    healthy = stack.wait_until(site.healthy, 30, interval=0.5)
    return report_moves("redis-restart", before, seen, args.target,
                        f"worker restarted by its supervisor {site.restarts() - restarts}"
                        f" time(s); /healthz 200 again: {'yes' if healthy else 'NO'}")


def _redis_subscriptions(redis_url: str) -> tuple[int, int, int]:
    """(channels subscribed, their subscribers, connected clients) in the site's Redis."""
    import redis

    client = redis.Redis.from_url(redis_url)
    channels = client.pubsub_channels()
    numsub = sum(n for _, n in client.pubsub_numsub(*channels)) if channels else 0
    return len(channels), numsub, client.info("clients")["connected_clients"]


def _healthz_calls(site: stack.Site, n: int) -> dict:
    """n anonymous GET /healthz on one keep-alive connection; {status: count}."""
    host, port = site.url.split("//")[1].split(":")
    conn = http.client.HTTPConnection(host, int(port), timeout=30)
    statuses: dict = {}
    for _ in range(n):
        try:
            conn.request("GET", "/healthz")
            answer = conn.getresponse()
            answer.read()
        except (OSError, http.client.HTTPException):
            conn.close()  # the server closed it: a new connection, as a client would
            conn.request("GET", "/healthz")
            answer = conn.getresponse()
            answer.read()
        statuses[answer.status] = statuses.get(answer.status, 0) + 1
    conn.close()
    return statuses


def drill_healthz(args, site: stack.Site, redis: stack.Redis) -> bool:
    pid = site.web_pids[0]
    started = stack.rss_mb(pid)
    _healthz_calls(site, 100)  # warm-up: code paths loaded, pools filled
    rss0, subs0 = stack.rss_mb(pid), _redis_subscriptions(redis.url)
    t = time.monotonic()
    statuses = _healthz_calls(site, args.calls)
    seconds = time.monotonic() - t
    rss1, subs1 = stack.rss_mb(pid), _redis_subscriptions(redis.url)
    grew = rss1 - rss0
    ok = grew < args.target_mb and subs1[0] <= subs0[0] and subs1[1] <= subs0[1]
    print(f"healthz: {args.calls} anonymous calls in {seconds:.1f} s, answers {statuses}")
    print(f"  daphne RSS: {started:.1f} MB at start, {rss0:.1f} MB after the warm-up, "
          f"{rss1:.1f} MB after: +{grew:.1f} MB (target < {args.target_mb:g} MB)")
    print(f"  Redis PUBSUB CHANNELS {subs0[0]} -> {subs1[0]}, NUMSUB total {subs0[1]} -> "
          f"{subs1[1]}, connected clients {subs0[2]} -> {subs1[2]}")
    print(f"  {'PASS' if ok else 'MISS'}")
    return ok


DRILLS = {"worker-kill": drill_worker_kill, "redis-restart": drill_redis_restart,
          "healthz": drill_healthz}


def main(argv: list[str]) -> int:
    args = parse(argv)
    run_dir = args.run_dir or Path(tempfile.mkdtemp(prefix="blaze-drills-"))
    run_dir.mkdir(parents=True, exist_ok=True)
    print(f"{args.drill}: {context()}; logs in {run_dir}")
    redis = stack.Redis(stack.free_port(), run_dir)
    redis.start()
    site = None
    try:
        env = stack.site_env(args.database_url, redis.url, args.prefix)
        stack.database_fresh(args.database_url, env)
        site = stack.Site(env, args.web, run_dir)
        site.start()
        _django_setup(env)
        ok = DRILLS[args.drill](args, site, redis)
        print(f"after: load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
    finally:
        if site is not None:
            site.stop()
        redis.stop()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
