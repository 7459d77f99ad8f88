from django.core.management.base import BaseCommand, CommandError

from games.engine.cli import replay_file


class Command(BaseCommand):
    help = "Replay blaze-record/1 game records (JSON Lines) and print one result line each."
    # a pure computation: the system checks would import every URL, view and API schema
    requires_system_checks = []

    def add_arguments(self, parser):
        parser.add_argument("file", help="a JSON Lines file of records, or - for standard input")

    def handle(self, *args, file, **options):
        try:
            replay_file(file, self.stdout)
        except OSError as e:
            raise CommandError(f"cannot read {file}: {e.strerror or e}") from None
