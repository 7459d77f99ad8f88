"""Realistic data in bulk, for operators and the growth benchmark (bench/growth.py).

Users, and games dealt and played to the end by the project's own engine (every move
legal: the engine's random player, capped like a live game), written with bulk_create a
batch at a time; a few games left in play, each waiting on a person; then ratings and game
figures rebuilt from the games (ratings.services.ratings_recompute), as after an import.
"""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from accounts.services import bots_create
from games.engine import deal_game, random_move, state_from_deal
from games.models import Game, Move, Seat

MAX_MOVES = 400  # a random game that circles longer is dealt again
BATCH = 200  # games a transaction
LEVELS = ["random", "basic", "strong"]
TIME_CONTROLS = [{"kind": "live", "minutes": 5}, {"kind": "correspondence", "days": 1}]
IN_PLAY = 0.02  # share of games left in play


def _played(rng, players: int):
    """(deal, moves, final state) of one game played to its end by the engine."""
    while True:
        deal = deal_game(players)
        state = state_from_deal(deal)
        moves = []
        while not state.finished and len(moves) < MAX_MOVES:
            move = random_move(state, rng)
            state.apply(move)
            moves.append(move)
        if state.finished:
            return deal, moves, state


def _in_play(rng, players: int, humans: set):
    """(deal, moves, state) of a game stopped at a person's turn."""
    deal = deal_game(players)
    state = state_from_deal(deal)
    moves = []
    stop = rng.randrange(1, 60)
    while not state.finished and len(moves) < MAX_MOVES:
        if len(moves) >= stop and set(state.waiting_on) <= humans:
            return deal, moves, state
        move = random_move(state, rng)
        state.apply(move)
        moves.append(move)
    return None


def users_create(n: int, rng) -> list[int]:
    User = get_user_model()
    password = make_password("seed-password")  # hashed once: a user a row, not a hash
    start = User.objects.filter(username__startswith="seed").count()
    rows = [User(username=f"seed{start + i:07d}", email=f"seed{start + i:07d}@example.com",
                 password=password,
                 date_joined=timezone.now() - timedelta(days=rng.randrange(1, 365)))
            for i in range(n)]
    for i in range(0, n, 1000):
        User.objects.bulk_create(rows[i:i + 1000])
    return list(User.objects.filter(username__startswith="seed").values_list("pk", flat=True))


def _game_rows(rng, user_ids: list[int], now, finished: bool):
    players = rng.choice([3, 4, 4, 5])
    humans = rng.randint(1, min(players, len(user_ids)))
    seats = rng.sample(user_ids, humans) + [None] * (players - humans)
    rng.shuffle(seats)
    human_seats = {i for i, u in enumerate(seats) if u is not None}
    if finished:
        deal, moves, state = _played(rng, players)
    else:
        played = None
        while played is None:
            played = _in_play(rng, players, human_seats)
        deal, moves, state = played
    started = now - timedelta(minutes=rng.randrange(10, 60 * 24 * 365))
    step = timedelta(seconds=rng.randrange(2, 20))
    creator = next(u for u in seats if u is not None)
    game = Game(
        players=players, rated=rng.random() < 0.6, time_control=rng.choice(TIME_CONTROLS),
        created_by_id=creator, started=started, deal=deal, seq=len(moves),
        status=Game.FINISHED if finished else Game.PLAYING,
        waiting_on=[] if finished else state.waiting_on,
        finished=started + step * len(moves) if finished else None,
        result={"scores": state.scores, "ranking": state.ranking,
                "round_losers": list(state.round_losers)} if finished else None,
    )
    seat_rows = [Seat(index=i, user_id=u, bot_level=None if u else rng.choice(LEVELS))
                 for i, u in enumerate(seats)]
    move_rows = [Move(seq=n, seat=m["seat"], payload=m) for n, m in enumerate(moves)]
    return game, seat_rows, move_rows


def games_create(n: int, user_ids: list[int], rng, *, finished: bool = True) -> int:
    """n games (finished, or in play waiting on a person); returns the moves written."""
    now = timezone.now()
    written = 0
    for start in range(0, n, BATCH):
        built = [_game_rows(rng, user_ids, now, finished)
                 for _ in range(min(BATCH, n - start))]
        with transaction.atomic():
            games = Game.objects.bulk_create([g for g, _, _ in built])
            Seat.objects.bulk_create(
                s for game, (_, seats, _) in zip(games, built) for s in _owned(seats, game))
            moves = [m for game, (_, _, ms) in zip(games, built) for m in _owned(ms, game)]
            Move.objects.bulk_create(moves, batch_size=5000)
            # created is auto_now_add (bulk_create stamps now): a game's is its start
            # (its moves keep now: nothing reads the time of a finished game's move)
            Game.objects.filter(pk__in=[g.pk for g in games]).update(created=F("started"))
        written += len(moves)
    return written


def _owned(rows, game):
    for row in rows:
        row.game = game
        yield row


def seed(*, users: int, games: int, seed: int | None = None, recompute: bool = True) -> dict:
    from ratings.services import ratings_recompute

    rng = random.Random(seed)
    bots_create()
    user_ids = users_create(users, rng)
    in_play = int(games * IN_PLAY)
    moves = games_create(games - in_play, user_ids, rng)
    moves += games_create(in_play, user_ids, rng, finished=False)
    rated = ratings_recompute() if recompute else 0
    return {"users": len(user_ids), "games": games, "moves": moves, "recomputed": rated}
