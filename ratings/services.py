"""Writes: per-seat game figures and rating updates, both idempotent."""

from django.db import IntegrityError, transaction
from django.db.models import F

from accounts.models import User
from games.models import Game

from . import rating as skill
from .figures import game_figures
from .models import GameStat, PlayerTotals, Rating, RatingChange


def seat_users(seats) -> dict[int, int | None]:
    """Seat index -> user id; a bot seat without a user is its level's bot user."""
    bot_ids = dict(User.objects.filter(is_bot=True).values_list("username", "id"))
    users = {}
    for seat in seats:
        if seat.user_id is not None:
            users[seat.index] = seat.user_id
        elif seat.bot_level:
            users[seat.index] = bot_ids.get(f"bot-{seat.bot_level}")
        else:
            users[seat.index] = None
    return users


def _counts(game: Game) -> bool:
    return game.status == Game.FINISHED and not game.imported and game.deal is not None


def game_stats_record(*, game_id: int) -> int:
    """Store the per-seat figures of a finished, non-imported game; returns rows added.

    Idempotent: the unique (game, seat) constraint drops a second copy.
    """
    game = Game.objects.get(pk=game_id)
    if not _counts(game):
        return 0
    if GameStat.objects.filter(game_id=game_id).exists():
        return 0
    payloads = list(game.moves.order_by("seq").values_list("payload", flat=True))
    seats = list(game.seats.all())
    figures = game_figures(game.deal, payloads, game.result,
                           abandoned={s.index for s in seats if s.abandoned})
    users = seat_users(seats)
    finished = game.finished or game.created
    rows = [
        GameStat(
            game=game, seat=f["seat"], user_id=users.get(f["seat"]), players=game.players,
            rated=game.rated, finished=finished, rank=f["rank"], score=f["score"],
            feathers=f["feathers"], feather_total=sum(sum(r) for r in f["feathers"]),
            rounds=len(f["feathers"]), rounds_lost=f["rounds_lost"],
            bets_on_loser=f["bets_on_loser"], bets_placed=f["bets_placed"],
        )
        for f in figures
    ]
    try:
        with transaction.atomic():
            # Raises if another worker recorded the game meanwhile: its totals are counted.
            GameStat.objects.bulk_create(rows)
            _totals_add(rows, private=game.private)
    except IntegrityError:
        return 0
    return len(rows)


def _totals_add(rows: list[GameStat], *, private: bool) -> None:
    """Add one game's GameStat rows to their players' PlayerTotals (in the caller's
    transaction, so the totals always equal the rows summed)."""
    added: dict[tuple[int, int], dict] = {}
    for row in rows:
        if row.user_id is None:
            continue
        total = added.setdefault((row.user_id, row.players), dict.fromkeys(
            ["games", "won", *PlayerTotals.SUMMED], 0))
        total["games"] += 1
        total["won"] += row.rank == 1
        for name, field in PlayerTotals.SUMMED.items():
            total[name] += getattr(row, field)
    PlayerTotals.objects.bulk_create(
        [PlayerTotals(user_id=u, players=n, private=private) for u, n in added],
        ignore_conflicts=True)
    for (user_id, players), total in sorted(added.items()):  # one lock order: no deadlock
        PlayerTotals.objects.filter(user_id=user_id, players=players, private=private).update(
            **{name: F(name) + value for name, value in total.items()})


def _opponent_keys(seats, users) -> dict[int, str]:
    """Seat index -> who sits there as an opponent: a person's user id, or "bot-<level>"
    (two bots of one level are one opponent)."""
    return {s.index: (f"bot-{s.bot_level}" if s.user_id is None and s.bot_level
                      else str(users[s.index])) for s in seats}


def _public_counted(r: Rating, game: Game) -> list[str]:
    """Count a public game on the rating row for the leaderboard (public games only, in
    all and at its player count); the fields changed."""
    if game.private:
        return []
    at_count = f"games_{game.players}"
    r.games_public += 1
    setattr(r, at_count, getattr(r, at_count) + 1)
    return ["games_public", at_count]


def rating_update_for_game(*, game_id: int) -> list[RatingChange]:
    """Apply a rated, finished, non-imported game to its players' ratings, once.

    Seats rank by the game's final ranking, seats that abandoned it last. A bot seat
    plays at its level's anchor (rating.BOT_ANCHORS), which never moves; people's
    ratings move, and become established after enough games against varied opponents.
    Returns the changes made; none when the game was applied already.
    """
    game = Game.objects.get(pk=game_id)
    if not (game.rated and _counts(game) and game.result and game.result.get("ranking")):
        return []
    seats = list(game.seats.all())
    users = seat_users(seats)
    bots = {s.index: s.bot_level for s in seats if s.user_id is None and s.bot_level}
    keys = _opponent_keys(seats, users)
    abandoned = {s.index for s in seats if s.abandoned}
    order = skill.rank_order(game.result["ranking"], abandoned)
    people = sorted({users[s.index] for s in seats
                     if s.index not in bots and users[s.index] is not None})
    bot_users = sorted({users[i] for i in bots if users[i] is not None})
    with transaction.atomic():
        Rating.objects.bulk_create([Rating(user_id=u) for u in people + bot_users],
                                   ignore_conflicts=True)
        # Locked in user id order, so concurrent games cannot deadlock.
        ratings = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(user_id__in=people + bot_users)
            .order_by("user_id")
        }
        if RatingChange.objects.filter(game_id=game_id).exists():
            return []  # Another worker applied this game first.
        before = [
            skill.BOT_ANCHORS[bots[seat]] if seat in bots
            else (ratings[users[seat]].mu, ratings[users[seat]].sigma)
            if users[seat] is not None else skill.initial()
            for seat, _ in order
        ]
        after = skill.rate(before, [rank for _, rank in order])
        changes = []
        for (seat, rank), (mu0, sigma0), (mu1, sigma1) in zip(order, before, after):
            user_id = users[seat]
            if user_id is None or seat in bots:
                continue
            changes.append(RatingChange(
                game_id=game_id, user_id=user_id, rank=rank, mu_before=mu0,
                sigma_before=sigma0, mu_after=mu1, sigma_after=sigma1,
            ))
            r = ratings[user_id]
            met = list(r.opponents)
            for other, key in keys.items():
                if other != seat and key not in met and len(met) < skill.PROVISIONAL_OPPONENTS:
                    met.append(key)
            r.mu, r.sigma, r.games, r.opponents = mu1, sigma1, r.games + 1, met
            r.established = skill.is_established(r.games, len(met))
            r.save(update_fields=["mu", "sigma", "games", "opponents", "established",
                                  "updated", *_public_counted(r, game)])
        bot_levels = {users[i]: level for i, level in bots.items() if users[i] is not None}
        for user_id, level in bot_levels.items():  # the anchor, shown on the leaderboard
            r = ratings[user_id]
            r.mu, r.sigma = skill.BOT_ANCHORS[level]
            r.games, r.established = r.games + 1, True
            r.save(update_fields=["mu", "sigma", "games", "established", "updated",
                                  *_public_counted(r, game)])
        RatingChange.objects.bulk_create(changes)
    return changes


def game_finished_record(*, game_id: int) -> None:
    """Everything this app derives from a finished game: its figures and ratings."""
    game_stats_record(game_id=game_id)
    rating_update_for_game(game_id=game_id)


RECOMPUTE_BATCH = 500  # games a transaction


def ratings_recompute(*, batch: int = RECOMPUTE_BATCH, progress=None) -> int:
    """Wipe and rebuild every Rating, RatingChange, GameStat and PlayerTotals, in finish
    order, `batch` games a transaction (no transaction lasts the whole run on a large
    site); the same rows as one pass, since each game is applied in the same order.

    Run with the Celery workers stopped, or a game finishing meanwhile may be
    applied out of order; the pages show partial figures until it ends. Returns the number
    of games counted; `progress(done, total)` is called after each batch.
    """
    if batch < 1:
        raise ValueError("batch must be at least 1")
    with transaction.atomic():
        for model in (RatingChange, GameStat, PlayerTotals, Rating):
            model.objects.all().delete()
    game_ids = list(
        Game.objects.filter(status=Game.FINISHED, imported=False)
        .order_by("finished", "id").values_list("id", flat=True)
    )
    for start in range(0, len(game_ids), batch):
        with transaction.atomic():
            for game_id in game_ids[start:start + batch]:
                game_finished_record(game_id=game_id)
        if progress is not None:
            progress(min(start + batch, len(game_ids)), len(game_ids))
    return len(game_ids)
