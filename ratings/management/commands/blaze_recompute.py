from django.core.management.base import BaseCommand, CommandError

from ratings.services import RECOMPUTE_BATCH, ratings_recompute


class Command(BaseCommand):
    help = (
        "Wipe and recompute every rating, rating change and game figure from the stored "
        "games, in finish order, a batch of games a transaction. Stop the Celery workers "
        "first."
    )

    def add_arguments(self, parser):
        parser.add_argument("--batch", type=int, default=RECOMPUTE_BATCH,
                            help=f"games a transaction (default {RECOMPUTE_BATCH})")

    def handle(self, *args, batch: int, **options):
        if batch < 1:
            raise CommandError("--batch must be at least 1")
        verbose = options["verbosity"] > 1
        games = ratings_recompute(batch=batch, progress=(
            (lambda done, total: self.stdout.write(f"{done} of {total} games"))
            if verbose else None))
        self.stdout.write(f"Recomputed {games} finished games.")
