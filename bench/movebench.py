"""CPU a move costs the web process, measured in one process without sockets or HTTP:
live four-player games played through Django's full request path (middleware, the API,
the service, the broadcast to the channel layer), one move after another.

    python -m bench.movebench --moves 2000 [--behind 1 | --processes 2] [--profile 30]
        [--games-ahead N]

Prints CPU ms a move and a GET of the mover's view (process time, so other load on the
machine barely moves it), statements a move, on a PostgreSQL server of this machine the CPU
its backends serving this process spent a move and its GET, and with --profile the
functions taking the most CPU. Uses the database, cache and channel layer of the
environment (DATABASE_URL, REDIS_URL...).
"""

import argparse
import cProfile
import os
import pstats
import random
import sys
import time


def _setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")
    # libpq names this process's connections: their backends can be told apart
    os.environ["PGAPPNAME"] = APP_NAME
    import django

    django.setup()


APP_NAME = f"blaze-movebench-{os.getpid()}"


def _players(count: int):
    from django.contrib.auth import get_user_model

    from accounts.services import api_token_create

    users, tokens = [], []
    stamp = f"{os.getpid()}-{int(time.time())}"
    for k in range(count):
        user = get_user_model().objects.create_user(f"mb{k}-{stamp}")
        users.append(user)
        tokens.append(api_token_create(user=user, name="movebench")[1])
    return users, tokens


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--moves", type=int, default=1000)
    parser.add_argument("--profile", type=int, default=0, metavar="N",
                        help="print the N functions with the most cumulative CPU time")
    parser.add_argument("--behind", type=int, default=0, metavar="K",
                        help="before each move this process holds only the state K moves "
                             "back, as when other processes made the game's latest moves")
    parser.add_argument("--processes", type=int, default=1, metavar="N",
                        help="the moves dealt in turn among N simulated processes, each "
                             "with its own cache of game states (catching up from its "
                             "own last move, as under load)")
    parser.add_argument("--games-ahead", type=int, default=0, metavar="N",
                        help="create N games before the first move and play them in "
                             "turn, none in the loop (bench.instructions: two runs of "
                             "different lengths then differ by their moves alone)")
    args = parser.parse_args(argv)
    if args.moves < 1 or args.games_ahead < 0 or args.processes < 1:
        parser.error("--moves and --processes take at least 1, --games-ahead no negative "
                     "number")
    if args.behind and args.processes > 1:
        parser.error("--behind and --processes are two ways of being behind: take one")
    _setup()
    from django.db import connection
    from django.test import Client

    from games import services
    from games.bots import choose_move

    rng = random.Random(1)
    client = Client()
    users, tokens = _players(4)
    auth = [{"HTTP_AUTHORIZATION": f"Bearer {t}"} for t in tokens]
    by_user = {u.pk: k for k, u in enumerate(users)}

    def new_game():
        game = services.game_create(creator=users[0], players=4,
                                    time_control={"kind": "live", "minutes": 10},
                                    quotas=False)  # the bench's own tables
        for u in users[1:]:
            services.game_join(game_id=game.pk, user=u)
        return game.pk

    ahead = [new_game() for _ in range(args.games_ahead)]

    def next_game():
        if not args.games_ahead:
            return new_game()
        if not ahead:
            raise SystemExit(f"the games made ahead ({args.games_ahead}) ended before "
                             f"{args.moves} moves: ask for more (--games-ahead)")
        return ahead.pop(0)

    game_id, moves, queries, cpu, get_cpu = next_game(), 0, 0, 0.0, 0.0
    backends_before = _backends_cpu()
    first = client.get(f"/api/v1/games/{game_id}", **auth[0])
    if first.status_code != 200:
        # e.g. ALLOWED_HOSTS without "testserver", the host Django's test client names
        raise SystemExit(f"reading a game's view answered {first.status_code}: "
                         f"{first.content[:200].decode(errors='replace')}")
    view = first.json()
    processes = _Processes(args.processes) if args.processes > 1 else None
    # CPU, not wall time: waiting on PostgreSQL or Redis costs the process nothing
    profiler = cProfile.Profile(time.process_time) if args.profile else None
    while moves < args.moves:
        if view["status"] != "playing":
            game_id = next_game()
            view = client.get(f"/api/v1/games/{game_id}", **auth[0]).json()
        seat = view["waiting_on"][0]
        k = next(by_user[uid] for uid, s in _seat_users(game_id).items() if s == seat)
        if processes:
            processes.for_get()
        t0 = time.process_time()
        mine = client.get(f"/api/v1/games/{game_id}", **auth[k]).json()
        get_cpu += time.process_time() - t0
        move = {key: v for key, v in choose_move(mine, seat, rng, "random").items()
                if key != "seat"}
        body = {"seq": mine["seq"], "move": move}
        if args.behind:
            _hold_only(game_id, mine["seq"] - args.behind)
        if processes:
            processes.for_post()
        # counted by an execute wrapper: a query log would make Django's debug cursor do
        # work a site with DEBUG off does not
        counted = []
        with connection.execute_wrapper(_counting(counted)):
            if profiler:
                profiler.enable()
            t0 = time.process_time()
            r = client.post(f"/api/v1/games/{game_id}/moves", body,
                            content_type="application/json", **auth[k])
            cpu += time.process_time() - t0
            if profiler:
                profiler.disable()
        if r.status_code != 200:
            print("move refused:", r.status_code, r.content[:200], file=sys.stderr)
            return 1
        queries += len(counted)
        moves += 1
        view = r.json()
    print(f"{moves} moves: {cpu / moves * 1000:.2f} ms CPU a move, "
          f"{queries / moves:.1f} statements a move (BEGIN and COMMIT aside); "
          "reading a game's view (GET): "
          f"{get_cpu / moves * 1000:.2f} ms CPU")
    backends_after = _backends_cpu()
    if backends_after is not None and backends_before is not None:
        spent = sum(backends_after.values()) - sum(backends_before.get(pid, 0.0)
                                                   for pid in backends_after)
        print(f"PostgreSQL: its backends spent {spent / moves * 1000:.2f} ms CPU a move and "
              f"its GET ({len(backends_after)} connections of this process)")
    if profiler:
        pstats.Stats(profiler).sort_stats("cumulative").print_stats(args.profile)
    return 0


def _counting(counted: list):
    def wrapper(execute, sql, params, many, context):
        counted.append(sql)
        return execute(sql, params, many, context)
    return wrapper


def _backends_cpu() -> dict[int, float] | None:
    """CPU seconds so far of each PostgreSQL backend serving this process's database
    connections (the pool's), where the server runs on this machine; else None."""
    from django.db import connection

    from bench.procs import cpu_seconds

    if connection.vendor != "postgresql":
        return None
    with connection.cursor() as cursor:
        cursor.execute("SELECT pid FROM pg_stat_activity WHERE application_name = %s",
                       [APP_NAME])
        pids = [pid for (pid,) in cursor.fetchall()]
    try:
        return {pid: cpu_seconds(pid) for pid in pids}
    except OSError:  # not on this machine
        return None


def _hold_only(game_id: int, seq: int) -> None:
    """Forget every state but the one after `seq` moves (made if this process lacks it)."""
    from games import selectors, state_cache
    from games.models import Game

    held = state_cache.get(game_id, seq)
    if held is None:
        game = Game.objects.get(pk=game_id)
        held = selectors._replayed(game, selectors.initial_state(game.deal), 0, seq)
    state_cache.clear()
    state_cache.put(game_id, seq, held)


class _Processes:
    """N web processes' caches of game states in this one: each move's POST is served by
    the next process in turn, the GET before it by the process that made the last move
    (it holds that state), as the load benchmark deals a game's seats between processes."""

    def __init__(self, count: int):
        from collections import OrderedDict

        from games import state_cache

        self.module = state_cache
        self.caches = [(OrderedDict(), {}) for _ in range(count)]  # states, facts
        self.turn = 0

    def use(self, k: int) -> None:
        self.module._cache, self.module._facts = self.caches[k % len(self.caches)]

    def for_get(self) -> None:
        self.use(self.turn - 1)

    def for_post(self) -> None:
        self.use(self.turn)
        self.turn += 1


_seat_cache: dict[int, dict[int, int]] = {}


def _seat_users(game_id: int) -> dict[int, int]:
    if game_id not in _seat_cache:
        from games.models import Seat

        _seat_cache[game_id] = dict(
            Seat.objects.filter(game_id=game_id).values_list("user_id", "index"))
    return _seat_cache[game_id]


if __name__ == "__main__":
    sys.exit(main())
