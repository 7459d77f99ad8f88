from django.core.management.base import BaseCommand, CommandError

from ops.seed import seed


class Command(BaseCommand):
    help = ("Add realistic data in bulk: N users and M games dealt and played by the engine "
            "(2% left in play, waiting on a person), Swiss tournaments (a running one of 200 "
            "players, a small finished one per 500 games), the games' notices and digest "
            "readers, then rebuild ratings and game figures. For benchmarks and trials; never "
            "on a site in use.")

    def add_arguments(self, parser):
        parser.add_argument("--users", type=int, default=1000)
        parser.add_argument("--games", type=int, default=5000)
        parser.add_argument("--seed", type=int, default=None, help="random seed")
        parser.add_argument("--no-recompute", action="store_true",
                            help="leave ratings and game figures as they are")
        parser.add_argument("--no-tournaments", action="store_true")
        parser.add_argument("--no-notices", action="store_true")

    def handle(self, *args, users, games, seed: int | None, no_recompute: bool,
               no_tournaments: bool, no_notices: bool, **options):
        if users < 1 or games < 0:
            raise CommandError("--users must be at least 1 and --games at least 0")
        made = seed_data(users=users, games=games, seed=seed, recompute=not no_recompute,
                         tournaments=not no_tournaments, notices=not no_notices)
        self.stdout.write("Seeded {users} users (in all), {games} games, {moves} moves, "
                          "{tournaments} tournaments ({tournament_games} games), {notices} "
                          "notices; {recomputed} finished games rated.".format(**made))


seed_data = seed
