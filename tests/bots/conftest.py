import random

import pytest

from games.engine import new_game


def positions(players: int, seed: int, count: int):
    """States met in one random game (a mix of stages), as independent clones."""
    from games.engine import random_move
    rng = random.Random(seed)
    state = new_game(players, rng)
    found = []
    step = 0
    while not state.finished and len(found) < count:
        if step % 3 == 0:
            found.append(state.clone())
        state.apply(random_move(state, rng))
        step += 1
    return found


@pytest.fixture
def make_positions():
    return positions


@pytest.fixture
def sample_positions():
    return [p for n in (3, 4, 5) for seed in range(3) for p in positions(n, seed, 400)]
