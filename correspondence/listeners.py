"""How clocks and notifications react to games (connected in apps.py)."""

from games import events

from .clocks import clock_view, clocks_on_move, clocks_start
from .notifications import notify_game_over


def on_game_started(*, game) -> None:
    clocks_start(game)


def on_move_played(*, game, seat, move, state) -> None:
    clocks_on_move(game, mover=seat, state_after=state)


def on_game_ended(*, game, reason) -> None:
    """Everyone seated hears that the game is over (when the rules ended it)."""
    if reason != events.FINISHED:
        return
    for seat in game.seats.select_related("user"):
        notify_game_over(game, seat)


def connect() -> None:
    events.game_started.connect(on_game_started, when=events.IN_TRANSACTION, order=10,
                                name="correspondence.clocks_start")
    events.move_played.connect(on_move_played, when=events.IN_TRANSACTION, order=10,
                               name="correspondence.clocks_on_move")
    events.game_ended.connect(on_game_ended, when=events.IN_TRANSACTION, order=30,
                              name="correspondence.notify_game_over")
    events.view_part_register("clocks", clock_view)
