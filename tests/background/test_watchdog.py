"""The watchdog reads the rows: a game waiting on a bot with no move for too long gets its
bot turn queued again, once per stall interval; healthy games are left alone."""

from datetime import timedelta

import pytest
from django.utils import timezone

from games import services
from games.watchdog import bot_turns_requeue, games_waiting_on_bots, stalled_bot_games

from .test_tasks_run_twice import _stalled, _waiting_on_a_bot

pytestmark = pytest.mark.django_db


@pytest.fixture
def queued(monkeypatch, settings):
    """Bot turns the watchdog queues, recorded instead of run."""
    settings.BOT_PAUSE_SECONDS = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    turns = []
    monkeypatch.setattr(services, "bot_turn_queue",
                        lambda *, game_id, seq: turns.append((game_id, seq)))
    return turns


def test_a_lost_bot_turn_is_queued_again_once_per_stall(ann, queued):
    game = _stalled(_waiting_on_a_bot(ann))
    assert bot_turns_requeue() == 1
    assert bot_turns_requeue() == 0  # the turn is queued: not again at once
    assert queued == [(game.pk, game.seq)]


def test_a_bot_that_just_moved_is_not_hurried(ann, queued):
    game = _waiting_on_a_bot(ann)
    assert [w.game_id for w in games_waiting_on_bots()] == [game.pk]
    assert stalled_bot_games() == []
    assert bot_turns_requeue() == 0 and queued == []
    later = timezone.now() + timedelta(minutes=5)
    assert [w.seq for w in stalled_bot_games(later)] == [game.seq]


def test_a_game_waiting_on_a_person_is_not_a_stalled_bot(ann, queued):
    game = _stalled(_waiting_on_a_bot(ann))
    game.waiting_on = [game.seats.get(user=ann).index]
    game.save(update_fields=["waiting_on"])
    assert games_waiting_on_bots() == [] and bot_turns_requeue() == 0 and queued == []
