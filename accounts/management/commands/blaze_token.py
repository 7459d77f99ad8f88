from django.core.management.base import BaseCommand

from accounts.services import api_token_create, user_get_or_create


class Command(BaseCommand):
    help = "Print a new API token for USERNAME (the user is created if missing)."

    def add_arguments(self, parser):
        parser.add_argument("username")
        parser.add_argument("--name", default="blaze_token", help="a name for the token")

    def handle(self, *args, username, name, **options):
        user = user_get_or_create(username=username)
        _, secret = api_token_create(user=user, name=name)
        # Only the token on stdout, so scripts can capture it.
        self.stdout.write(secret)
