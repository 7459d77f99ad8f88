import random

import pytest

from games.engine import export_record, new_game, random_move


@pytest.fixture(autouse=True)
def _abuse_setup(fast_passwords, eager_tasks):
    """Fast password hashing, in-process tasks and a fresh state cache for every test."""


def finished_record(seed: int = 1, players: int = 3) -> dict:
    """A legal blaze-record/1 of a whole random game."""
    rng = random.Random(seed)
    state = new_game(players, random.Random(seed))
    while not state.finished:
        state.apply(random_move(state, rng))
    return export_record(state, [f"p{i}" for i in range(players)])


def record_moves(record: dict) -> int:
    return sum(len(r["moves"]) for r in record["rounds"])
