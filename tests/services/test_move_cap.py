"""Every game has a clear end: one still going at the move cap ends with the move that
reaches it, drawn and counting for nobody (docs/move-cap.md), people's games too."""

import random

import pytest

from games import services
from games.models import Game
from games.selectors import game_view_for
from ratings.models import GameStat, RatingChange
from tests.games_helpers import random_legal_move

pytestmark = pytest.mark.django_db


def test_a_game_between_people_ends_drawn_at_the_move_cap(ann, bob, cat, settings,
                                                          django_capture_on_commit_callbacks):
    settings.BLAZE_MAX_GAME_MOVES = 100
    game = services.game_create(creator=ann, players=3, rated=True)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    users = {s.index: s.user for s in game.seats.select_related("user")}
    rng = random.Random(7)
    with django_capture_on_commit_callbacks(execute=True):
        while game.status == Game.PLAYING:
            seat = game.waiting_on[0]
            services.move_play(game_id=game.pk, user=users[seat], seq=game.seq,
                               move=random_legal_move(game, seat, rng))
            game = Game.objects.get(pk=game.pk)
    assert game.status == Game.ABORTED and game.seq == 100 and game.waiting_on == []
    view = game_view_for(game, ann)
    assert view["status"] == "aborted" and view["waiting_on"] == [] and "options" not in view
    # it counts for nobody: no rating change, no figures
    assert not RatingChange.objects.filter(game=game).exists()
    assert not GameStat.objects.filter(game=game).exists()
    with pytest.raises(services.IllegalMove):
        seat = next(iter(users))
        services.move_play(game_id=game.pk, user=users[seat], seq=100, move={"move": "pass"})
