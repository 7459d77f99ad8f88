"""Realistic data in bulk, for operators and the growth benchmark (bench/growth.py).

Users, and games dealt and played to the end by the project's own engine (every move
legal: the engine's random player, capped like a live game), written with bulk_create a
batch at a time; a few games left in play, each waiting on a person; Swiss tournaments
(their tables are games of the registered players: one of 200 players still running, and
a small finished one per 500 games); the notices those games left (most read, as old as
their games) and players who chose the daily digest; then ratings and game figures
rebuilt from the games (ratings.services.ratings_recompute), as after an import.
"""

import random
from datetime import timedelta

from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from django.db import transaction
from django.db.models import F, OuterRef, Subquery
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
        deal = deal_game(players, rng)
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
    deal = deal_game(players, rng)
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


def _game_rows(rng, user_ids: list[int], now, finished: bool, seats: list | None = None):
    """(game, seats, moves) rows of one game: at `seats` (user ids in seat order), or a
    random table of people and bots."""
    if seats is None:
        players = rng.choice([3, 4, 4, 5])
        humans = rng.randint(1, min(players, len(user_ids)))
        seats = rng.sample(user_ids, humans) + [None] * (players - humans)
        rng.shuffle(seats)
    players = len(seats)
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
        written += len(_games_write(built)[1])
    return written


def _games_write(built: list) -> tuple[list, list]:
    """Write _game_rows' rows in one transaction: (games, moves)."""
    with transaction.atomic():
        games = Game.objects.bulk_create([g for g, _, _ in built])
        Seat.objects.bulk_create(
            s for game, (_, seats, _) in zip(games, built) for s in _owned(seats, game))
        moves = [m for game, (_, _, ms) in zip(games, built) for m in _owned(ms, game)]
        Move.objects.bulk_create(moves, batch_size=5000)
        # created is auto_now_add (bulk_create stamps now): a game's is its start
        # (its moves keep now: nothing reads the time of a finished game's move)
        Game.objects.filter(pk__in=[g.pk for g in games]).update(created=F("started"))
    return games, moves


def tournament_create(players: list[int], rng, *, rounds: int = 3, table_size: int = 4,
                      running: bool = False, name: str = "Seeded Swiss") -> tuple:
    """A Swiss tournament of `players` (user ids; the first organises it) at tables of
    `table_size` (some a seat shorter when the count does not divide), its rounds' games
    played by the engine; `running` leaves two thirds of the last round in play. Returns
    (tournament, games, moves written)."""
    from tournaments.models import Registration, Tournament, TournamentRound, TournamentTable

    now = timezone.now()
    begun = now - timedelta(days=rng.randrange(4, 300))
    t = Tournament.objects.create(
        name=name, format=Tournament.SWISS, table_size=table_size, rounds=rounds,
        time_control=TIME_CONTROLS[1], rated=True, registration_opens=begun - timedelta(days=7),
        registration_closes=begun, starts_at=begun, min_players=3,
        max_players=max(len(players), 3), current_round=rounds, organiser_id=players[0],
        status=Tournament.RUNNING if running else Tournament.FINISHED,
        finished=None if running else begun + timedelta(days=rounds))
    Registration.objects.bulk_create(Registration(tournament=t, user_id=u) for u in players)
    games = moves = 0
    for number in range(1, rounds + 1):
        order = rng.sample(players, len(players))
        count = max(1, min(-(-len(order) // table_size), len(order) // 3))  # 3 a table
        sizes = [len(order) // count + (i < len(order) % count) for i in range(count)]
        tables, at = [], 0
        for size in sizes:
            tables.append(order[at:at + size])
            at += size
        in_play = running and number == rounds
        built = [_game_rows(rng, players, now, finished=not in_play or k % 3 == 0, seats=seats)
                 for k, seats in enumerate(tables)]
        for game, _, _ in built:
            game.rated, game.time_control = True, TIME_CONTROLS[1]
        written, move_rows = _games_write(built)
        played = TournamentRound.objects.create(tournament=t, number=number)
        TournamentTable.objects.bulk_create(
            TournamentTable(round=played, game=game, number=k)
            for k, game in enumerate(written, start=1))
        games, moves = games + len(written), moves + len(move_rows)
    return t, games, moves


def notices_create(rng, *, digest_share: float = 0.1) -> int:
    """The notices finished games left their people ("game over"; nine in ten read, each
    as old as its game), and a share of seeded players who chose the daily digest.
    Returns the notices written."""
    from notifications.models import Notification

    User = get_user_model()
    digest = [pk for pk in User.objects.filter(username__startswith="seed")
              .values_list("pk", flat=True) if rng.random() < digest_share]
    User.objects.filter(pk__in=digest).update(email_on_turn="digest")
    seats = (Seat.objects.filter(user__isnull=False, game__status=Game.FINISHED)
             .values_list("user_id", "game_id").order_by("game_id", "index"))
    written, rows = 0, []
    for user_id, game_id in [*seats.iterator(chunk_size=5000), (None, None)]:
        if user_id is not None:
            rows.append(Notification(
                user_id=user_id, game_id=game_id, kind=Notification.GAME_OVER,
                key=f"game_over:{game_id}:{user_id}", text=f"Game {game_id} is over.",
                read=rng.random() < 0.9, emailed=True))
        if len(rows) == 5000 or (user_id is None and rows):
            written += len(Notification.objects.bulk_create(rows, ignore_conflicts=True))
            rows = []
    # created is auto_now_add (bulk_create stamps now): each notice is as old as its game
    Notification.objects.filter(kind=Notification.GAME_OVER, game__isnull=False).update(
        created=Subquery(Game.objects.filter(pk=OuterRef("game_id")).values("finished")[:1]))
    return written


def _owned(rows, game):
    for row in rows:
        row.game = game
        yield row


GAMES_A_TOURNAMENT = 500  # a small finished tournament per this many games
BIG_TOURNAMENT = 200  # players of the running one (the most a tournament takes)


def seed(*, users: int, games: int, seed: int | None = None, recompute: bool = True,
         tournaments: bool = True, notices: bool = True) -> dict:
    from ratings.services import ratings_recompute

    rng = random.Random(seed)
    bots_create()
    user_ids = users_create(users, rng)
    in_play = int(games * IN_PLAY)
    moves = games_create(games - in_play, user_ids, rng)
    moves += games_create(in_play, user_ids, rng, finished=False)
    made = {"tournaments": 0, "tournament_games": 0, "notices": 0}
    if tournaments and len(user_ids) >= 3:  # (tables of 3 to 5)
        plans = [(sorted(rng.sample(user_ids, min(12, len(user_ids)))), False)
                 for _ in range(games // GAMES_A_TOURNAMENT)]
        plans.append((sorted(rng.sample(user_ids, min(BIG_TOURNAMENT, len(user_ids)))), True))
        for players, running in plans:
            _, played, written = tournament_create(
                players, rng, running=running,
                name=f"Seeded Swiss of {len(players)}" + (" (running)" if running else ""))
            made["tournaments"] += 1
            made["tournament_games"] += played
            moves += written
    if notices:
        made["notices"] = notices_create(rng)
    rated = ratings_recompute() if recompute else 0
    return {"users": len(user_ids), "games": games, "moves": moves, "recomputed": rated,
            **made}
