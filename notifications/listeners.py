"""How notifications react to games and to the apps above them (connected in apps.py)."""

from games import events

from .notifications import notify, notify_game_ended


def on_game_ended(*, game, reason) -> None:
    """However a game ends, everyone seated hears of it once, in words."""
    notify_game_ended(game, reason)


def connect() -> None:
    events.game_ended.connect(on_game_ended, when=events.IN_TRANSACTION, order=40,
                              name="notifications.notify_game_ended")
    events.player_notice.connect(notify, when=events.IN_TRANSACTION, order=10,
                                 name="notifications.notify")
