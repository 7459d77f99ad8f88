"""How the site's costs grow with its data: every page and periodic job measured at two
sizes of realistic data (blaze_seed: users and games played by the engine), in queries,
time and bytes, with the ratio of the large to the small.

    python -m bench.growth [--users 200] [--games 1000] [--factor 10] [--repeat 3]

Builds two databases of its own (<DATABASE_URL's name>_growth_small and _large, dropped
at the end), seeds them (users x games, and factor x that), then measures each page and
job on one and the other in turn, so both sizes meet the same load on a shared machine.
Pages are requested in-process through Django's full request path (test client), signed
in as the seeded player with the most games of those a game waits on; time is the median
of --repeat rounds, each after a warm-up. Memory is the peak of Python's heap during one
more call, traced by tracemalloc (allocations since the call began, the largest of the
rounds; the traced call is not the timed one). Targets (issue 28): same queries, time
within 1.5x, no page over 200 kB, no request over 20 MB of memory; pages over either limit
are flagged and the exit status is 1.
"""

import argparse
import os
import statistics
import sys
import time
import tracemalloc

PAGE_LIMIT = 200_000  # bytes of a page
MEMORY_LIMIT = 20_000_000  # bytes of memory a request may take


def _setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")  # jobs' follow-ups run here
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    os.environ["DB_POOL_MAX_SIZE"] = "0"  # one connection, pointed at either database
    import django
    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()


JOBS = ["games.tasks.bots_watchdog", "clocks.tasks.clocks_sweep",
        "tournaments.tasks.tournaments_tick", "accounts.tasks.guests_remove",
        "notifications.tasks.send_digests", "notifications.tasks.notifications_prune",
        "accounts.tasks.sessions_clear", "notifications.tasks.notices_release"]


def _pages() -> list[tuple[str, str]]:
    from django.db.models import Count

    from games.models import Game, Seat
    from tournaments.models import Tournament

    # the player with the most games among those a game in play waits on: at both sizes the
    # lists then read the clocks of the viewer's turns (a list with no turn skips that query)
    waited_on = {s.user_id for s in Seat.objects.filter(
        game__status=Game.PLAYING, user__username__startswith="seed").select_related("game")
        if s.index in s.game.waiting_on}
    player = (Seat.objects.filter(user_id__in=waited_on).values("user__username")
              .annotate(n=Count("id")).order_by("-n", "user__username")[0]["user__username"])
    finished = Game.objects.filter(status=Game.FINISHED).order_by("pk").values_list(
        "pk", flat=True)[0]
    # the seed's running Swiss tournament: 200 players (or every user, when fewer)
    big = Tournament.objects.filter(status=Tournament.RUNNING).order_by("-max_players")[0]
    return [
        ("home", "/"), ("lobby", "/play/"), ("my games", "/games/"),
        ("API game list", "/api/v1/games"),
        ("bot profile", "/u/bot-basic/"), ("player profile", f"/u/{player}/"),
        ("head-to-head", f"/u/{player}/?vs=bot-basic"),
        ("bot head-to-head", f"/u/bot-basic/?vs={player}"),
        ("leaderboard", "/leaderboard/"), ("leaderboard 4", "/leaderboard/?players=4"),
        ("tournaments", "/tournaments/"), ("tournament", f"/tournaments/{big.pk}/"),
        ("game page", f"/games/{finished}/"),
    ], player


class Site:
    """One seeded database of the two; `use()` points the connection at it (no pool: the
    connection is opened anew) and empties the caches the other one filled."""

    def __init__(self, label: str, name: str):
        self.label, self.name, self.pages, self.player = label, name, None, None
        self.names = set()

    def use(self):
        from django.core.cache import cache
        from django.db import connection

        from games.selectors import state_cache_clear

        connection.close()
        connection.settings_dict["NAME"] = self.name
        cache.clear()
        state_cache_clear()
        if self.pages is None:
            self.pages, self.player = _pages()
            self.names = {name for name, _ in self.pages}


def _once(call) -> tuple[int, float, int]:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as ctx:
        t = time.perf_counter()
        size = call()
        ms = (time.perf_counter() - t) * 1000
    return len(ctx.captured_queries), ms, size


def _peak(call) -> int:
    """The peak of Python's heap while `call` runs, above where it began (tracemalloc)."""
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        begun = tracemalloc.get_traced_memory()[0]
        call()
        return tracemalloc.get_traced_memory()[1] - begun
    finally:
        tracemalloc.stop()


def _calls(site: Site) -> dict:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from blaze_site.celery import app

    client = Client()
    client.force_login(get_user_model().objects.get(username=site.player))
    calls = {}
    for name, url in site.pages:
        def get(url=url):
            response = client.get(url, HTTP_ACCEPT="text/html")
            assert response.status_code == 200, (url, response.status_code)
            return len(response.content)
        calls[name] = get
    app.loader.import_default_modules()
    for job in JOBS:
        calls[job.rsplit(".", 1)[1]] = lambda job=job: app.tasks[job].apply().get() and 0
    return calls


def measure(sites: list, repeat: int) -> list[dict]:
    """Each page and job on each site in turn (small, large, small, large...), so both
    sizes meet the same load on a shared machine; medians of `repeat` rounds."""
    results = [{} for _ in sites]
    for _ in range(repeat):
        for site, out in zip(sites, results):
            site.use()
            for name, call in _calls(site).items():
                call()  # warm-up: caches, compiled templates
                queries, ms, size = _once(call)
                row = out.setdefault(name, {"queries": queries, "ms": [], "bytes": size,
                                            "memory": 0, "page": name in site.names})
                row["ms"].append(ms)
                row["memory"] = max(row["memory"], _peak(call))
    for out in results:
        for row in out.values():
            row["ms"] = statistics.median(row["ms"])
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--seed", type=int, default=28)
    parser.add_argument("--keep", action="store_true",
                        help="keep the two databases, and measure kept ones without seeding")
    args = parser.parse_args(argv)
    _setup()
    from django.db import connection

    from ops.seed import seed

    base = connection.settings_dict["NAME"]
    sites = []
    try:
        for label, factor in (("small", 1), ("large", args.factor)):
            connection.close()
            connection.settings_dict["NAME"] = base
            connection.settings_dict["TEST"]["NAME"] = f"{base}_growth_{label}"
            name = connection.creation.create_test_db(verbosity=0, autoclobber=True,
                                                      serialize=False, keepdb=args.keep)
            sites.append(Site(label, name))
            if args.keep and _seeded():
                continue
            t = time.perf_counter()
            made = seed(users=args.users * factor, games=args.games * factor, seed=args.seed)
            with connection.cursor() as cursor:  # what autovacuum does on a site in use
                cursor.execute("VACUUM ANALYZE")
            print(f"{label}: seeded {made} in {time.perf_counter() - t:.0f} s",
                  file=sys.stderr)
        over = _print(measure(sites, args.repeat), args)
    finally:
        for site in sites if not args.keep else ():
            connection.close()
            connection.settings_dict["NAME"] = site.name
            connection.creation.destroy_test_db(base, verbosity=0)
    return 1 if over else 0


def _seeded() -> bool:
    from games.models import Game

    return Game.objects.exists()


def _print(sizes, args) -> list[str]:
    """The table, then the pages over a limit (returned)."""
    small, large = sizes
    print(f"{args.users} users / {args.games} games against x{args.factor}")
    print(f"{'':<20}{'queries':>14}{'ms':>18}{'ratio':>7}{'kB':>16}{'MB peak':>16}")
    over = []
    for name in small:
        a, b = small[name], large[name]
        ratio = b["ms"] / a["ms"] if a["ms"] else float("nan")
        print(f"{name:<20}{a['queries']:>6} -> {b['queries']:<5}{a['ms']:>8.1f} -> "
              f"{b['ms']:<7.1f}{ratio:>5.2f}x{a['bytes'] / 1000:>7.1f} -> "
              f"{b['bytes'] / 1000:<6.1f}{a['memory'] / 1e6:>6.2f} -> {b['memory'] / 1e6:<6.2f}")
        for label, row in (("1x", a), (f"{args.factor}x", b)):
            if not row["page"]:
                continue
            if row["memory"] > MEMORY_LIMIT:
                over.append(f"{name} at {label}: {row['memory'] / 1e6:.1f} MB of memory")
            if row["bytes"] > PAGE_LIMIT:
                over.append(f"{name} at {label}: {row['bytes'] / 1000:.0f} kB")
    for line in over:
        print(f"OVER THE LIMIT: {line}")
    if not over:
        print(f"every page within {PAGE_LIMIT // 1000} kB and "
              f"{MEMORY_LIMIT // 1_000_000} MB of memory")
    return over


if __name__ == "__main__":
    sys.exit(main())
