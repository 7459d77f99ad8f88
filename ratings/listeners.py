"""How ratings react to games (connected in apps.py)."""

from games import events

from .tasks import rating_update


def on_game_ended(*, game, reason) -> None:
    """Runs after commit: rate the finished game in the background."""
    if reason != events.FINISHED:
        return
    rating_update.delay(game.pk)


def connect() -> None:
    events.game_ended.connect(on_game_ended, when=events.ON_COMMIT, order=10,
                              name="ratings.rating_update")
