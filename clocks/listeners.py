"""How clocks react to games (connected in apps.py). What clocks tell players goes out as
games.events.player_notice (notices.py)."""

from games import events

from .calendar import waiting_deadlines
from .clocks import READ, clock_view, clocks_on_move, clocks_start, clocks_stop, reminders_refresh
from .models import SeatClock


def on_game_started(*, game) -> None:
    clocks_start(game)


def on_move_played(*, game, seat, move, state, seats) -> None:
    clocks_on_move(game, mover=seat, state_after=state, seats={s.index: s for s in seats})


def on_game_ended(*, game, reason) -> None:
    """However a game ends (finished, aborted), its clocks stop, so the sweeper never
    looks at it again."""
    clocks_stop(game)


def on_reminder_choices_changed(sender, *, user, **kwargs) -> None:
    """New reminder points or quiet hours apply to the turns already running."""
    reminders_refresh(user)


def connect() -> None:
    from accounts.signals import reminder_choices_changed

    reminder_choices_changed.connect(on_reminder_choices_changed,
                                     dispatch_uid="clocks-reminder-choices")
    events.game_started.connect(on_game_started, when=events.IN_TRANSACTION, order=10,
                                name="clocks.clocks_start")
    events.move_played.connect(on_move_played, when=events.IN_TRANSACTION, order=10,
                               name="clocks.clocks_on_move")
    events.game_ended.connect(on_game_ended, when=events.IN_TRANSACTION, order=30,
                              name="clocks.clocks_stop")
    events.view_part_register("clocks", clock_view)
    events.seat_table_register(READ, SeatClock)
    events.deadlines_register(waiting_deadlines)
