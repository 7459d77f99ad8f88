"""GET /api/v1/games/{id}/log: the moves so far in words, for those who may watch."""

import random

import pytest

from games import services
from games.models import Game
from tests.games_helpers import api_get, bearer, random_legal_move

pytestmark = pytest.mark.django_db


def _game_with_moves(ann, bob, cat, *, private=False, moves=3) -> Game:
    game = services.game_create(creator=ann, players=3, private=private)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    rng = random.Random(7)
    for _ in range(moves):
        game.refresh_from_db()
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=game.seats.get(index=seat).user,
                           seq=game.seq, move=random_legal_move(game, seat, rng))
    game.refresh_from_db()
    return game


def test_a_player_reads_every_move_so_far_in_words(client, ann, bob, cat):
    game = _game_with_moves(ann, bob, cat)
    answer = api_get(client, f"/api/v1/games/{game.pk}/log", bearer(bob))
    assert answer.status_code == 200, answer.content
    body = answer.json()
    assert body["seq"] == game.seq
    assert body["lines"] and all(line["text"] for line in body["lines"])


def test_an_outsider_gets_no_log_of_a_private_table(client, ann, bob, cat, dan):
    game = _game_with_moves(ann, bob, cat, private=True, moves=1)
    answer = api_get(client, f"/api/v1/games/{game.pk}/log", bearer(dan))
    assert answer.status_code == 404
    assert "error" in answer.json()
