from django.shortcuts import get_object_or_404, render

from accounts.models import User

from .stats import leaderboard, profile_context


def _int_param(request, name: str, default, allowed=None):
    try:
        value = int(request.GET.get(name, ""))
    except ValueError:
        return default
    if allowed is not None and value not in allowed:
        return default
    return max(value, 0)


def leaderboard_page(request):
    min_games = _int_param(request, "min", 5)
    players = _int_param(request, "players", None, allowed=(3, 4, 5))
    context = {
        "rows": leaderboard(min_games=min_games, players=players),
        "min_games": min_games,
        "players": players,
        "player_counts": [3, 4, 5],
    }
    return render(request, "ratings/leaderboard.html", context)


def profile(request, username: str):
    """A player's page: figures, rating chart, recent games (`?vs=` head to head)."""
    player = get_object_or_404(User, username=username, is_active=True)
    vs = request.GET.get("vs", "").strip()
    return render(request, "ratings/profile.html",
                  {"player": player, **profile_context(player, vs, viewer=request.user)})
