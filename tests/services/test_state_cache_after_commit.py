"""The state cache holds only what the database holds: a move whose transaction rolls
back is never served, even once the game reaches that seq by another move."""

import random

import pytest
from django.db import transaction

from games import services
from games.engine import legal_moves, view
from games.models import Game, Move
from games.selectors import game_state_rebuild
from games.state_cache import get as _cache_get
from tests.games_helpers import api_get, bearer

pytestmark = pytest.mark.django_db(transaction=True)


class Rollback(Exception):
    pass


def _two_different_moves(game: Game, seat: int) -> tuple[dict, dict]:
    state = game_state_rebuild(game)
    views = {}
    for move in legal_moves(state, seat):
        after = state.clone()
        after.apply(move)
        views.setdefault(repr(view(after, None)), move)
    first, second = list(views.values())[:2]
    return ({k: v for k, v in first.items() if k != "seat"},
            {k: v for k, v in second.items() if k != "seat"})


def test_a_rolled_back_move_is_never_served(client, ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert _cache_get(game.pk, 0) is not None  # committed states are cached
    seat = game.waiting_on[0]
    mover = game.seats.get(index=seat).user
    undone, played = _two_different_moves(game, seat)

    with pytest.raises(Rollback), transaction.atomic():
        services.move_play(game_id=game.pk, user=mover, seq=0, move=undone)
        raise Rollback  # e.g. a later step of the same request failed
    assert _cache_get(game.pk, 1) is None

    # Another process plays a different move at the same seq and commits it.
    Move.objects.create(game=game, seq=0, seat=seat, payload={**played, "seat": seat})
    Game.objects.filter(pk=game.pk).update(seq=1)
    game.refresh_from_db()
    truth = game_state_rebuild(game)
    Game.objects.filter(pk=game.pk).update(waiting_on=truth.waiting_on)
    game.refresh_from_db()
    for user in (ann, bob, cat):
        served = api_get(client, f"/api/v1/games/{game.pk}", bearer(user)).json()
        expected = view(truth, served["you"])
        assert served["table"] == expected["table"] and served["hand"] == expected["hand"]
        assert served["waiting_on"] == expected["waiting_on"]
    # And the next move is checked against the true position.
    seat = game.waiting_on[0]
    move = random.Random(0).choice(legal_moves(truth, seat))
    services.move_play(game_id=game.pk, user=game.seats.get(index=seat).user, seq=1,
                       move={k: v for k, v in move.items() if k != "seat"})
    assert Move.objects.filter(game=game).count() == 2
