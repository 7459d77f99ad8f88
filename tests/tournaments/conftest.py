from datetime import timedelta

import pytest
from django.utils import timezone

from games.engine import legal_moves, random_move
from tests.conftest import make_user
from tournaments.services import tournament_create, tournament_register


@pytest.fixture(autouse=True)
def _in_process_tasks(eager_tasks):
    """Bot turns and tournament tasks run in-process in these tests."""


def make_tournament(organiser, **fields):
    now = timezone.now()
    fields.setdefault("name", "Autumn Cup")
    fields.setdefault("registration_opens", now - timedelta(hours=1))
    fields.setdefault("registration_closes", now + timedelta(hours=1))
    return tournament_create(organiser=organiser, **fields)


def make_players(prefix: str, count: int, **fields) -> list:
    return [make_user(f"{prefix}{i:02d}", **fields) for i in range(count)]


def register_all(tournament, users) -> None:
    for user in users:
        tournament_register(tournament_id=tournament.pk, user=user)


@pytest.fixture
def cup(ann):
    return make_tournament(ann)


def _random_bot_move(state, seat, level, rng) -> dict:
    move = random_move(state, rng) if state.waiting_on[0] == seat else None
    if move is None or move["seat"] != seat:
        move = rng.choice(legal_moves(state, seat))
    return {k: v for k, v in move.items() if k != "seat"}


@pytest.fixture
def random_bots(monkeypatch):
    """Bots that play random legal moves: much faster than searching bots, and random
    play ends its games."""
    import games.tasks

    monkeypatch.setattr(games.tasks, "view", lambda state, seat: state)
    monkeypatch.setattr(games.tasks, "bot_choose_move", _random_bot_move)
