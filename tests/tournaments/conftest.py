from datetime import timedelta

import pytest
from django.utils import timezone

from blaze_site.celery import app as celery_app
from games.engine import legal_moves, random_move
from games.selectors import state_cache_clear
from tests.conftest import make_user
from tournaments.services import tournament_create, tournament_register


@pytest.fixture(autouse=True)
def _eager_tasks_and_fresh_cache():
    # Bot turns and tournament tasks run in-process in these tests, Redis or not.
    eager = celery_app.conf.task_always_eager
    celery_app.conf.task_always_eager = True
    state_cache_clear()
    yield
    celery_app.conf.task_always_eager = eager
    state_cache_clear()


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
    """Bots that play random legal moves. The placeholder bot of games/bot_moves.py can
    loop forever at five (it never adds and always challenges low); random play ends."""
    import games.tasks

    monkeypatch.setattr(games.tasks, "view", lambda state, seat: state)
    monkeypatch.setattr(games.tasks, "bot_choose_move", _random_bot_move)
