from django.core.management.base import BaseCommand

from ratings.services import ratings_recompute


class Command(BaseCommand):
    help = (
        "Wipe and recompute every rating, rating change and game figure from the stored "
        "games, in finish order. Stop the Celery workers first."
    )

    def handle(self, *args, **options):
        games = ratings_recompute()
        self.stdout.write(f"Recomputed {games} finished games.")
