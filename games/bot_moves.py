"""The bot seam: the web app's one call into the bots of games/bots/.

Bots decide from their seat's view only, never from the full state (fair by
construction); `strong` searches within BLAZE_BOT_BUDGET_MS milliseconds.
"""

from django.conf import settings

from .bots import choose_move


def bot_choose_move(state_view: dict, seat: int, level: str, rng) -> dict:
    """A legal move (without "seat") for `seat` at `level` ("random", "basic", "strong")."""
    budget = getattr(settings, "BLAZE_BOT_BUDGET_MS", 1000)
    move = choose_move(state_view, seat, rng=rng, level=level, budget_ms=budget)
    return {k: v for k, v in move.items() if k != "seat"}
