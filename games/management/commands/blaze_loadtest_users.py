"""Users and tokens for a local run of `python -m bench.loadtest`."""

from django.core.management.base import BaseCommand, CommandError
from django.db import transaction

from accounts.services import api_token_create, user_get_or_create


class Command(BaseCommand):
    help = ("Create COUNT users (PREFIX-0001 ...; existing ones are reused) with a new API "
            "token each, and write the tokens to OUT, one a line, for bench.loadtest.")

    def add_arguments(self, parser):
        parser.add_argument("--count", type=int, default=800, help="four a game")
        parser.add_argument("--prefix", default="load")
        parser.add_argument("--out", required=True, help="the tokens file to write")

    def handle(self, *args, count, prefix, out, **options):
        if not 1 <= count <= 100_000:
            raise CommandError("--count must be from 1 to 100000")
        secrets = []
        with transaction.atomic():
            for i in range(1, count + 1):
                user = user_get_or_create(username=f"{prefix}-{i:04d}")
                secrets.append(api_token_create(user=user, name="loadtest")[1])
        with open(out, "w") as f:
            f.write("\n".join(secrets) + "\n")
        self.stdout.write(f"{count} users, tokens in {out}")
