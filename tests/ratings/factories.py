"""Finished games for the ratings tests: a deal, its move log and the result."""

import datetime
import random

from django.utils import timezone

from games.engine import deal_game, random_move, state_from_deal
from games.models import Game, Move, Seat

from . import handmade

START = timezone.make_aware(datetime.datetime(2025, 3, 1, 12, 0))


def random_game(players: int, seed: int) -> tuple[dict, list]:
    """A deal and the moves of a random legal game that ends."""
    rng = random.Random(seed)
    while True:
        deal = deal_game(players, rng)
        state, moves = state_from_deal(deal), []
        while not state.finished and len(moves) < 3000:
            move = random_move(state, rng)
            state.apply(move)
            moves.append(move)
        if state.finished:
            return deal, moves


def finished_game(seats: list, *, seed: int | None = None, handmade_game: bool = False,
                  rated: bool = True, minutes: int = 0, status: str = Game.FINISHED,
                  imported: bool = False) -> Game:
    """A stored game; `seats` holds users, or "bot:<level>" for a bot seat with no user.

    `handmade_game` stores tests/ratings/handmade.py (3 seats), else a random game
    from `seed`. It finishes `minutes` after START.
    """
    if handmade_game:
        deal, moves = handmade.DEAL, handmade.MOVES
    else:
        deal, moves = random_game(len(seats), seed if seed is not None else 0)
    state = state_from_deal(deal)
    for move in moves:
        state.apply(move)
    when = START + datetime.timedelta(minutes=minutes)
    game = Game.objects.create(
        players=len(seats), status=status, rated=rated, imported=imported, deal=deal,
        seq=len(moves), started=when - datetime.timedelta(minutes=30), finished=when,
        result={"scores": state.scores, "ranking": state.ranking,
                "round_losers": state.round_losers},
    )
    for index, who in enumerate(seats):
        if isinstance(who, str):
            level = who.removeprefix("bot:")
            Seat.objects.create(game=game, index=index, bot_level=level, name=f"bot-{level}")
        else:
            Seat.objects.create(game=game, index=index, user=who, name=who.username)
    Move.objects.bulk_create(
        [Move(game=game, seq=k + 1, seat=m["seat"], payload=m) for k, m in enumerate(moves)]
    )
    return game
