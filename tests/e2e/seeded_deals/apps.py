import os
import random

from django.apps import AppConfig


class SeededDealsConfig(AppConfig):
    name = "tests.e2e.seeded_deals"

    def ready(self):
        from games import services
        from lib import chance

        services._system = random.Random(os.environ["BLAZE_E2E_DEAL_SEED"])
        chance._source = random.Random("bots " + os.environ["BLAZE_E2E_DEAL_SEED"])
