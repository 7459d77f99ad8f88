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
    made = seed(users=12, games=50, seed=3, tournaments=False, notices=False)
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


def test_seeded_tournaments_are_played_by_their_players_and_leave_notices():
    from django.db.models import F

    from notifications.models import Notification
    from tournaments.models import Tournament, TournamentTable
    from tournaments.selectors import tournament_standings

    made = seed(users=30, games=10, seed=4)
    running = Tournament.objects.get(status=Tournament.RUNNING)
    players = set(running.registrations.values_list("user_id", flat=True))
    assert len(players) == 30 and made["tournaments"] == 1
    tables = TournamentTable.objects.filter(round__tournament=running).select_related("game")
    assert tables.count() == made["tournament_games"] == 3 * 8  # 30 at tables of 4 or 3
    for table in tables:
        seated = set(table.game.seats.values_list("user_id", flat=True))
        assert seated <= players and None not in seated
        state = state_from_deal(table.game.deal)
        for move in Move.objects.filter(game=table.game).order_by("seq"):
            state.apply(move.payload)
    assert {t.game.status for t in tables if t.round.number == 3} == {Game.FINISHED,
                                                                      Game.PLAYING}
    assert [r.played for r in tournament_standings(running)][:1] in ([2], [3])
    notices = Notification.objects.filter(kind=Notification.GAME_OVER)
    assert notices.count() == made["notices"] > 0
    assert not notices.exclude(created=F("game__finished")).exists()
    assert notices.filter(read=False).exists() and notices.filter(read=True).exists()
    assert User.objects.filter(email_on_turn="digest", username__startswith="seed").exists()
