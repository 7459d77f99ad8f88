"""Reads: player figures, recent games, head-to-head, rating history, leaderboard.

All of it sums the GameStat and RatingChange rows that the services derive from
the stored games by replaying them through the engine.
"""

from django.db.models import Count, F, OuterRef, Q, Subquery, Sum

from accounts.models import User
from games.models import Seat, player_name

from . import rating as skill
from .models import GameStat, PlayerTotals, Rating, RatingChange


def _shown_to(viewer) -> Q:
    """The rows (GameStat or RatingChange) of games this viewer may see listed: public
    games, and private ones only where the viewer held a seat. A private game is never
    listed, counted or summed for anyone else (its ids, dates and players stay unknown)."""
    public = Q(game__private=False)
    if viewer is None or not getattr(viewer, "is_authenticated", False):
        return public
    return public | Q(game_id__in=Seat.objects.filter(user=viewer).values("game_id"))


def _ratio(part, whole):
    return part / whole if whole else None


def _summary(row: dict) -> dict:
    games = row["games"]
    return {
        "players": row.get("players"),
        "games": games,
        "won": row["won"],
        "average_score": row["score"] / games if games else None,
        "feathers": row["feathers"],
        "feathers_per_round": _ratio(row["feathers"], row["rounds"]),
        "rounds_lost": row["rounds_lost"],
        "bets_placed": row["bets_placed"],
        "bets_on_loser": row["bets_on_loser"],
        "bet_accuracy": _ratio(row["bets_on_loser"], row["bets_placed"]),
    }


_TOTALS = ["games", "won", *PlayerTotals.SUMMED]


def player_stats(user: User, viewer=None) -> dict:
    """Totals over every counted game the viewer may see, and the same by player count.

    Read from the player's PlayerTotals rows (a few, however many games): public games,
    and private ones when the viewer is the player. Another signed-in viewer also sees the
    private games they sat at with the player: summed from those games' rows, found from
    the viewer's seats (bounded by the viewer's games, not the player's)."""
    rows = PlayerTotals.objects.filter(user=user)
    own = viewer is not None and getattr(viewer, "pk", None) == user.pk
    if not own:
        rows = rows.filter(private=False)
    by_count: dict[int, dict] = {}
    for row in rows.values("players", *_TOTALS):
        _sum_into(by_count, row)
    if (viewer is not None and getattr(viewer, "is_authenticated", False) and not own):
        shared = Seat.objects.filter(user=viewer, game__private=True).values("game_id")
        for row in (GameStat.objects.filter(user=user, game_id__in=shared).order_by()
                    .values("players").annotate(
                        games=Count("id"), won=Count("id", filter=Q(rank=1)),
                        **{name: Sum(field) for name, field in PlayerTotals.SUMMED.items()})):
            _sum_into(by_count, row)
    by_players = [_summary(by_count[n]) for n in sorted(by_count) if by_count[n]["games"]]
    total = {"players": None, **{name: sum(r[name] for r in by_count.values())
                                 for name in _TOTALS}}
    return {"total": _summary(total), "by_players": by_players}


def _sum_into(by_count: dict, row: dict) -> None:
    total = by_count.setdefault(row["players"], {"players": row["players"],
                                                 **dict.fromkeys(_TOTALS, 0)})
    for name in _TOTALS:
        total[name] += row[name] or 0


def recent_games(user: User, limit: int = 10, viewer=None) -> list[dict]:
    """The user's last games the viewer may see, newest first, with everyone's name and
    place."""
    mine = list(GameStat.objects.filter(_shown_to(viewer), user=user)[:limit])
    seats = {}
    for stat in GameStat.objects.filter(game_id__in=[m.game_id for m in mine]).select_related(
        "user"
    ).order_by("game_id", "rank"):
        seats.setdefault(stat.game_id, []).append(
            {"name": player_name(stat.user) if stat.user else "(no account)", "rank": stat.rank,
             "score": stat.score, "is_bot": bool(stat.user and stat.user.is_bot)}
        )
    return [
        {
            "game_id": m.game_id,
            "url": f"/games/{m.game_id}/",
            "replay_url": f"/games/{m.game_id}/replay/",
            "finished": m.finished,
            "players": m.players,
            "rated": m.rated,
            "rank": m.rank,
            "score": m.score,
            "seats": seats.get(m.game_id, []),
        }
        for m in mine
    ]


def head_to_head(user: User, other: User, viewer=None, recent: int = 10) -> dict:
    """Games both played that the viewer may see, and how often each finished above the
    other: counted in SQL (a bot plays every game: its rows never come into memory)."""
    shown = _shown_to(viewer)
    # a bot may hold several seats of one game: its best place there counts
    theirs = (GameStat.objects.filter(user=other, game_id=OuterRef("game_id"))
              .order_by("rank").values("rank"))
    # The games both played, as a semi-join: the planner starts from whichever of the two
    # played fewer (a bot's page against a person reads the person's games, not the bot's).
    both = GameStat.objects.filter(user=other).values("game_id")
    together = (GameStat.objects.filter(shown, user=user, game_id__in=both)
                .annotate(other_rank=Subquery(theirs[:1])).filter(other_rank__isnull=False))
    counts = together.aggregate(games=Count("id"),
                                ahead=Count("id", filter=Q(rank__lt=F("other_rank"))))
    return {
        "other": other,
        "games": counts["games"],
        "ahead": counts["ahead"],
        "behind": counts["games"] - counts["ahead"],
        "recent": [
            {"game_id": s.game_id, "url": f"/games/{s.game_id}/", "finished": s.finished,
             "players": s.players, "rank": s.rank, "other_rank": s.other_rank}
            for s in together.order_by("-finished", "-game_id")[:recent]
        ],
    }


def rating_of(user: User) -> dict:
    """The user's displayed rating (1000 and provisional before any rated game)."""
    r = Rating.objects.filter(user=user).first()
    mu, sigma, games = (r.mu, r.sigma, r.games) if r else (skill.MU, skill.SIGMA, 0)
    return {"value": skill.displayed(mu, sigma), "games": games,
            "provisional": r is None or r.provisional, "mu": mu, "sigma": sigma}


CHART_GAMES = 200  # the chart's last rated games: a bot's page stays small


def rating_history(user: User, viewer=None, last: int = CHART_GAMES) -> list[tuple]:
    """(date, displayed rating after the game) for each of the last `last` rated games the
    viewer may see, oldest first, starting with the rating before the first of them."""
    changes = list(
        RatingChange.objects.filter(_shown_to(viewer), user=user)
        .annotate(finished=F("game__finished"))
        .order_by("-finished", "-game_id")[:last]
    )[::-1]
    if not changes:
        return []
    first = changes[0]
    points = [(first.finished, first.before)]
    points += [(c.finished, c.after) for c in changes]
    return points


def leaderboard(*, min_games: int = 5, players: int | None = None, limit: int = 100) -> list:
    """Established players (rating.is_established: no provisional rating is listed) by
    conservative rating, with at least `min_games` rated games.

    The rating is global; with `players`, only players with rated games at that
    player count are listed, and `min_games` counts those games.
    """
    ratings = Rating.objects.select_related("user").filter(user__is_active=True,
                                                           established=True)
    at_count = f"games_{players}" if players in (3, 4, 5) else None
    if at_count is None:
        ratings = ratings.filter(games__gte=min_games)
    else:  # counted on the rating row as games are applied: no scan of rating changes
        ratings = ratings.filter(**{f"{at_count}__gte": max(min_games, 1)})
    # Walks the board's partial index (Rating.Meta.indexes) and stops at `limit` rows:
    # the cost does not grow with the number of players.
    ratings = ratings.order_by("-conservative", "user__username")[:limit]
    # The public board counts public games only (a private game is known to its seats
    # alone): the rating row keeps those counts too.
    return [
        {"place": place, "user": r.user, "rating": r.displayed, "games": r.games_public,
         "games_at_count": getattr(r, at_count) if at_count else None,
         "provisional": r.provisional,
         "is_bot": r.user.is_bot}
        for place, r in enumerate(ratings, start=1)
    ]


def profile_context(player: User, vs: str = "", viewer=None) -> dict:
    """Everything the profile page shows `viewer` of ratings and figures (private games
    only to those who sat at them)."""
    from .chart import rating_chart

    context = {
        "stats": player_stats(player, viewer),
        "rating": rating_of(player),
        "chart": rating_chart(rating_history(player, viewer)),
        "recent": recent_games(player, viewer=viewer),
        "vs": vs,
        "h2h": None,
        "vs_unknown": False,
    }
    if vs:
        other = User.objects.filter(username=vs, is_active=True).exclude(pk=player.pk).first()
        if other is None:
            context["vs_unknown"] = True
        else:
            context["h2h"] = head_to_head(player, other, viewer)
    return context
