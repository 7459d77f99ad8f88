"""blaze_seed: realistic data in bulk, every game played by the engine with legal moves."""

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from accounts.models import User
from games.engine import state_from_deal
from games.models import Game, Move
from ops.seed import seed
from ratings.models import GameStat

pytestmark = pytest.mark.django_db


def test_seeded_games_replay_to_their_stored_result_with_legal_moves():
    made = seed(users=12, games=50, seed=3)
    assert made["users"] == 12 and Game.objects.count() == 50
    assert Move.objects.count() == made["moves"]
    finished = Game.objects.filter(status=Game.FINISHED)
    assert finished.count() == 49 and made["recomputed"] == 49
    for game in finished:
        state = state_from_deal(game.deal)
        for move in Move.objects.filter(game=game).order_by("seq"):
            state.apply(move.payload)  # raises on an illegal move
        assert state.finished and state.ranking == game.result["ranking"]
        assert game.seq == Move.objects.filter(game=game).count()
    playing = Game.objects.get(status=Game.PLAYING)
    waited = set(playing.waiting_on)
    assert waited and all(playing.seats.get(index=s).user_id for s in waited)
    assert playing.bot_turn_since is None
    assert GameStat.objects.filter(user__username__startswith="seed").exists()


def test_the_command_adds_to_what_is_there_and_refuses_nonsense():
    call_command("blaze_seed", "--users", "3", "--games", "4", "--seed", "1")
    call_command("blaze_seed", "--users", "2", "--games", "0")
    assert User.objects.filter(username__startswith="seed").count() == 5
    with pytest.raises(CommandError):
        call_command("blaze_seed", "--users", "0")
