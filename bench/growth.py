"""How the site's costs grow with its data: every page and periodic job measured at two
sizes of realistic data (blaze_seed: users and games played by the engine), in queries,
time and bytes, with the ratio of the large to the small.

    python -m bench.growth [--users 200] [--games 1000] [--factor 10] [--repeat 3]

Builds its own database (<DATABASE_URL's name>_growth, dropped at the end), seeds the
small size, measures, seeds up to factor x the size, measures again, prints a table.
Pages are requested in-process through Django's full request path (test client), signed
in as the seeded player with the most games; time is the median of --repeat runs after
one warm-up. Targets (issue 28): same queries, time within 1.5x, no page over 200 kB.
"""

import argparse
import os
import statistics
import sys
import time


def _setup():
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")
    os.environ.setdefault("CELERY_TASK_ALWAYS_EAGER", "1")  # jobs' follow-ups run here
    os.environ.setdefault("LOG_LEVEL", "WARNING")
    import django
    from django.conf import settings

    db = settings.DATABASES["default"]
    db["TEST"] = {"NAME": f"{db['NAME']}_growth"}
    django.setup()
    from django.test.utils import setup_test_environment

    setup_test_environment()


JOBS = ["games.tasks.bots_watchdog", "clocks.tasks.clocks_sweep",
        "tournaments.tasks.tournaments_tick", "accounts.tasks.guests_remove",
        "notifications.tasks.send_digests"]


def _pages() -> list[tuple[str, str]]:
    from django.db.models import Count

    from games.models import Game, Seat

    player = (Seat.objects.filter(user__username__startswith="seed").values("user__username")
              .annotate(n=Count("id")).order_by("-n", "user__username")[0]["user__username"])
    finished = Game.objects.filter(status=Game.FINISHED).order_by("pk").values_list(
        "pk", flat=True)[0]
    return [
        ("home", "/"), ("lobby", "/play/"), ("my games", "/games/"),
        ("API game list", "/api/v1/games"),
        ("bot profile", "/u/bot-basic/"), ("player profile", f"/u/{player}/"),
        ("head-to-head", f"/u/{player}/?vs=bot-basic"),
        ("leaderboard", "/leaderboard/"), ("leaderboard 4", "/leaderboard/?players=4"),
        ("tournaments", "/tournaments/"), ("game page", f"/games/{finished}/"),
    ], player


def _measure(call, repeat: int) -> dict:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    call()  # warm-up: caches, compiled templates
    times, size, queries = [], 0, 0
    for _ in range(repeat):
        with CaptureQueriesContext(connection) as ctx:
            t = time.perf_counter()
            size = call()
            times.append((time.perf_counter() - t) * 1000)
        queries = len(ctx.captured_queries)
    return {"queries": queries, "ms": statistics.median(times), "bytes": size}


def measure(repeat: int) -> dict:
    from django.contrib.auth import get_user_model
    from django.test import Client

    from blaze_site.celery import app

    pages, player = _pages()
    client = Client()
    client.force_login(get_user_model().objects.get(username=player))
    out = {}
    for name, url in pages:
        def get(url=url):
            response = client.get(url, HTTP_ACCEPT="text/html")
            assert response.status_code == 200, (url, response.status_code)
            return len(response.content)
        out[name] = _measure(get, repeat)
    app.loader.import_default_modules()
    for job in JOBS:
        out[job.rsplit(".", 1)[1]] = _measure(lambda job=job: app.tasks[job].apply().get()
                                              and 0, repeat)
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--users", type=int, default=200)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--factor", type=int, default=10)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=28)
    args = parser.parse_args(argv)
    _setup()
    from django.db import connection

    from ops.seed import seed

    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        sizes = []
        for users, games in ((args.users, args.games),
                             ((args.factor - 1) * args.users, (args.factor - 1) * args.games)):
            t = time.perf_counter()
            made = seed(users=users, games=games, seed=args.seed + len(sizes))
            print(f"seeded {made} in {time.perf_counter() - t:.0f} s", file=sys.stderr)
            sizes.append(measure(args.repeat))
        _print(sizes, args)
    finally:
        connection.creation.destroy_test_db(connection.settings_dict["NAME"], verbosity=0)
    return 0


def _print(sizes, args) -> None:
    small, large = sizes
    print(f"{args.users} users / {args.games} games against x{args.factor}")
    print(f"{'':<16}{'queries':>14}{'ms':>18}{'ratio':>7}{'kB':>16}")
    for name in small:
        a, b = small[name], large[name]
        ratio = b["ms"] / a["ms"] if a["ms"] else float("nan")
        print(f"{name:<16}{a['queries']:>6} -> {b['queries']:<5}{a['ms']:>8.1f} -> "
              f"{b['ms']:<7.1f}{ratio:>5.2f}x{a['bytes'] / 1000:>7.1f} -> "
              f"{b['bytes'] / 1000:<6.1f}")


if __name__ == "__main__":
    sys.exit(main())
