import pytest

from games import services
from games.models import Game, Move
from games.tasks import bot_move


def _bot_table(creator, time_control=None):
    return services.game_create(creator=creator, players=3, bots=["basic", "basic"],
                                time_control=time_control)


def _waiting_bot(game) -> bool:
    bots = set(game.seats.filter(bot_level__isnull=False).values_list("index", flat=True))
    return bool(bots & set(game.waiting_on))


@pytest.mark.django_db
def test_bots_may_sit_at_rated_tables_so_people_can_measure_themselves(ann):
    game = services.game_create(creator=ann, players=3, bots=["strong", "basic"], rated=True)
    game.refresh_from_db()
    assert game.rated and game.status == Game.PLAYING


@pytest.mark.django_db
def test_a_game_that_circles_past_the_move_limit_is_aborted_by_the_bot_task(ann, settings):
    settings.BLAZE_MAX_GAME_MOVES = 100
    game = _bot_table(ann)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(seq=100)  # as if it had circled for 100 moves
    assert bot_move(game.pk, 100) == 0
    game.refresh_from_db()
    assert game.status == Game.ABORTED and game.waiting_on == []


@pytest.mark.django_db
def test_in_live_games_each_bot_move_is_its_own_task_after_a_pause(ann, settings, monkeypatch):
    settings.BOT_PAUSE_SECONDS = 1.0
    bot_move.app.conf.task_always_eager = False  # the conftest fixture restores it
    queued = []
    monkeypatch.setattr(services, "bot_turn_queue",
                        lambda *, game_id, seq: queued.append((game_id, seq)))
    game = _bot_table(ann, {"kind": "live", "minutes": 10})
    game.refresh_from_db()
    for _ in range(50):  # let the person move until a bot is waited on
        if _waiting_bot(game):
            break
        seat = game.seats.get(user=ann).index
        from games.engine import legal_moves
        from games.selectors import game_state
        move = {k: v for k, v in legal_moves(game_state(game), seat)[0].items() if k != "seat"}
        services.move_play(game_id=game.pk, user=ann, seq=game.seq, move=move)
        game.refresh_from_db()
    assert _waiting_bot(game)
    queued.clear()
    assert bot_move(game.pk, game.seq) == 1
    assert queued == [(game.pk, game.seq + 1)]
    assert Move.objects.filter(game=game).count() == game.seq + 1
