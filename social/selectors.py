"""Reads: friends and what they are doing now."""

from games.live.presence import presence_here_pairs
from games.models import Game, Seat

from .models import Follow

FRIENDS_LIMIT = 500


def friends_of(user) -> list[dict]:
    """The players the user follows, by name, with whether they have one of their tables
    open now and their public games being played (two queries and one cache round trip)."""
    followed = list(Follow.objects.filter(follower=user).select_related("followed")
                    .order_by("followed__username")[:FRIENDS_LIMIT])
    ids = [f.followed_id for f in followed]
    seats = list(Seat.objects.filter(
        user_id__in=ids, game__status__in=[Game.WAITING, Game.PLAYING])
        .values_list("user_id", "game_id", "game__status", "game__private"))
    here = {u for u, _g in presence_here_pairs((u, g) for u, g, _s, _p in seats)}
    playing: dict[int, list[int]] = {}
    for user_id, game_id, status, private in seats:
        if status == Game.PLAYING and not private:
            playing.setdefault(user_id, []).append(game_id)
    return [{"name": f.followed.username, "online": f.followed_id in here,
             "playing": sorted(playing.get(f.followed_id, []))} for f in followed]


def friends_live_game_ids(user, limit: int = 10) -> list[int]:
    """Public games being played by players the user follows, newest first."""
    return list(Game.objects.filter(
        status=Game.PLAYING, private=False,
        seats__user__followers__follower=user).distinct().order_by("-started")
        .values_list("pk", flat=True)[:limit])
