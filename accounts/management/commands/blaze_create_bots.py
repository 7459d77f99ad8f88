from django.core.management.base import BaseCommand

from accounts.services import bots_create


class Command(BaseCommand):
    help = "Create the house bot users (bot-random, bot-basic, bot-strong); idempotent."

    def handle(self, *args, **options):
        bots = bots_create()
        self.stdout.write("Bots: " + ", ".join(bot.username for bot in bots))
