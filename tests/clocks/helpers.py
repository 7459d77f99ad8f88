"""Games with clocks for the tests: started through the play services."""

import random

from django.test import TestCase

from games import services
from games.engine import legal_moves
from games.models import Game
from games.selectors import game_state

CORR3 = {"kind": "correspondence", "days": 3}


def started_game(users, time_control=None) -> Game:
    """A started game of these players (seats drawn at random), on_commit hooks run."""
    with committed():
        game = services.game_create(creator=users[0], players=len(users),
                                    time_control=time_control or CORR3)
        for user in users[1:]:
            services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def user_at(game, seat):
    return game.seats.get(index=seat).user


def move_random(game, seat, rng=None) -> Game:
    """`seat` plays a random legal move through move_play."""
    rng = rng or random.Random(1)
    game.refresh_from_db()
    move = dict(rng.choice(legal_moves(game_state(game), seat)))
    del move["seat"]
    with committed():
        services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq, move=move)
    game.refresh_from_db()
    return game


def committed():
    """Run on_commit hooks at the end of the block, as if it had committed (django_db tests
    run inside one transaction that never commits)."""
    return TestCase.captureOnCommitCallbacks(execute=True)
