"""Writes: per-seat game figures and rating updates, both idempotent."""

from collections import Counter

from django.db import transaction

from accounts.models import User
from games.models import Game

from . import rating as skill
from .figures import game_figures
from .models import GameStat, Rating, RatingChange


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
    created = GameStat.objects.bulk_create(rows, ignore_conflicts=True)
    return len(created)


def rating_update_for_game(*, game_id: int) -> list[RatingChange]:
    """Apply a rated, finished, non-imported game to its players' ratings, once.

    Seats rank by the game's final ranking, seats that abandoned it last. A user
    in more than one seat (two bots of one level) is left unchanged by the game.
    Returns the changes made; none when the game was applied already.
    """
    game = Game.objects.get(pk=game_id)
    if not (game.rated and _counts(game) and game.result and game.result.get("ranking")):
        return []
    seats = list(game.seats.all())
    users = seat_users(seats)
    abandoned = {s.index for s in seats if s.abandoned}
    order = skill.rank_order(game.result["ranking"], abandoned)
    seen = Counter(u for u in users.values() if u is not None)
    user_ids = sorted(seen)
    with transaction.atomic():
        Rating.objects.bulk_create([Rating(user_id=u) for u in user_ids], ignore_conflicts=True)
        # Locked in user id order, so concurrent games cannot deadlock.
        ratings = {
            r.user_id: r
            for r in Rating.objects.select_for_update().filter(user_id__in=user_ids)
            .order_by("user_id")
        }
        if RatingChange.objects.filter(game_id=game_id).exists():
            return []  # Another worker applied this game first.
        before = [
            (ratings[users[seat]].mu, ratings[users[seat]].sigma)
            if users[seat] is not None else skill.initial()
            for seat, _ in order
        ]
        after = skill.rate(before, [rank for _, rank in order])
        changes = []
        for (seat, rank), (mu0, sigma0), (mu1, sigma1) in zip(order, before, after):
            user_id = users[seat]
            if user_id is None or seen[user_id] > 1:
                continue
            changes.append(RatingChange(
                game_id=game_id, user_id=user_id, rank=rank, mu_before=mu0,
                sigma_before=sigma0, mu_after=mu1, sigma_after=sigma1,
            ))
            r = ratings[user_id]
            r.mu, r.sigma, r.games = mu1, sigma1, r.games + 1
            fields = ["mu", "sigma", "games", "updated"]
            if not game.private:  # the leaderboard's counts: public games only
                at_count = f"games_{game.players}"
                r.games_public += 1
                setattr(r, at_count, getattr(r, at_count) + 1)
                fields += ["games_public", at_count]
            r.save(update_fields=fields)
        RatingChange.objects.bulk_create(changes)
    return changes


def game_finished_record(*, game_id: int) -> None:
    """Everything this app derives from a finished game: its figures and ratings."""
    game_stats_record(game_id=game_id)
    rating_update_for_game(game_id=game_id)


def ratings_recompute() -> int:
    """Wipe and rebuild every Rating, RatingChange and GameStat, in finish order.

    Run with the Celery workers stopped, or a game finishing meanwhile may be
    applied out of order. Returns the number of games counted.
    """
    with transaction.atomic():
        RatingChange.objects.all().delete()
        GameStat.objects.all().delete()
        Rating.objects.all().delete()
        game_ids = list(
            Game.objects.filter(status=Game.FINISHED, imported=False)
            .order_by("finished", "id").values_list("id", flat=True)
        )
        for game_id in game_ids:
            game_finished_record(game_id=game_id)
    return len(game_ids)
