"""How clocks and notifications react to games (connected in apps.py)."""

from games import events

from .clocks import clock_view, clocks_on_move, clocks_start, clocks_stop
from .notifications import notify, notify_game_ended


def on_game_started(*, game) -> None:
    clocks_start(game)


def on_move_played(*, game, seat, move, state, seats) -> None:
    clocks_on_move(game, mover=seat, state_after=state, seats={s.index: s for s in seats})


def on_game_ended(*, game, reason) -> None:
    """However a game ends (finished, aborted), its clocks stop, so the sweeper never
    looks at it again, and everyone seated hears of it once, in words."""
    clocks_stop(game)
    notify_game_ended(game, reason)


def connect() -> None:
    events.game_started.connect(on_game_started, when=events.IN_TRANSACTION, order=10,
                                name="correspondence.clocks_start")
    events.move_played.connect(on_move_played, when=events.IN_TRANSACTION, order=10,
                               name="correspondence.clocks_on_move")
    events.game_ended.connect(on_game_ended, when=events.IN_TRANSACTION, order=30,
                              name="correspondence.clocks_stop_and_notify")
    events.player_notice.connect(notify, when=events.IN_TRANSACTION, order=10,
                                 name="correspondence.notify")
    events.view_part_register("clocks", clock_view)
