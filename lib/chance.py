"""The generators the site's bots draw their moves from: a fresh one each time, seeded from
the system. Tests seed the source instead (tests/conftest.py), so a bot game in a test
plays the same on every machine."""

import random

_source: random.Random = random.SystemRandom()


def new_rng() -> random.Random:
    return random.Random(_source.getrandbits(64))
