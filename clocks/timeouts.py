"""Running out of time: the built-in bot moves for a player whose clock ran out (the third
timeout in a row hands the seat to the bot), and players almost out are warned."""


from datetime import datetime

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_lazy

from games import events
from games.bot_moves import bot_choose_move
from games.engine import view
from games.models import Game, Seat
from games.selectors import game_state
from games.services import move_play, seat_abandon
from lib import chance

from . import clock as C
from .clocks import (
    CLOCK_FIELDS,
    clock_store,
    person_at,
    seat_rows,
    seat_vacations,
    time_control_of,
)
from .models import SeatClock
from .notices import tell
from .reminders import reminder_next

TIMEOUTS_BEFORE_BOT = 3


def deadline_expire(*, game_id: int, now: datetime | None = None) -> int:
    """Make the bot move for every seat of the game whose clock ran out; returns how many
    timeout moves were made. Skips a game another transaction holds (a move being made, or
    another sweeper): the next sweep looks again. Safe to run any number of times.

    A clock with no time left may time out several moves in one go (a live clock without
    increment): the player hears of it once (`_tell_timeouts`)."""
    now = now or timezone.now()
    made = 0
    streaks: dict[int, dict] = {}  # seat -> what this run did to it
    with transaction.atomic():
        game = Game.objects.select_for_update(skip_locked=True).filter(pk=game_id).first()
        if game is None:
            return 0  # someone else holds the game: they, or the next sweep, will see to it
        tc = time_control_of(game)
        for _ in range(4 * game.players):  # every seat at most a few times; never forever
            if tc is None or game.status != Game.PLAYING:
                break
            seats = seat_rows(game)
            vacations = seat_vacations(tc, seats)
            due = (
                SeatClock.objects.select_for_update()
                .filter(game=game, deadline__lte=now, running_since__isnull=False)
                .order_by("deadline", "seat")
            )
            target = None
            for row in due:
                if row.seat in game.waiting_on and C.timed_out(
                    row.clock, now, vacations.get(row.seat, ())
                ):
                    target = row
                    break
                # Not due after all (a vacation began since): store the true deadline.
                clock_store(row, row.clock, tc, vacations.get(row.seat, ()),
                            person_at(seats, row.seat))
                row.save(update_fields=CLOCK_FIELDS)
            if target is None:
                break
            _timeout_move(game, target, seats[target.seat], now, streaks)
            made += 1
            game.refresh_from_db()
        _tell_timeouts(game, streaks)
    return made


def _timeout_move(game, row: SeatClock, seat, now: datetime, streaks: dict) -> None:
    """The built-in bot's move for a player out of time, answering the game's `seq`.
    Holding the game row lock. The move counts like any other; the third timeout in a row
    hands the seat to the bot for good (games.services.seat_abandon: the player ranks
    last)."""
    state = game_state(game)
    move = bot_choose_move(view(state, row.seat), row.seat, Seat.TAKEOVER_BOT_LEVEL,
                           chance.new_rng())
    answered = game.seq
    if seat.bot_level:  # a bot seat whose task never came: play it, nobody to tell
        move_play(game_id=game.pk, seq=answered, move=move, bot_seat=row.seat)
        return
    in_row = row.timeouts_in_row + 1
    move_play(game_id=game.pk, user=seat.user, seq=answered, move=move)
    SeatClock.objects.filter(pk=row.pk).update(
        timeouts_in_row=in_row, timeouts=F("timeouts") + 1
    )
    streak = streaks.setdefault(row.seat, {"user": seat.user, "first_in_row": in_row,
                                           "seq": answered, "abandoned": False})
    if in_row >= TIMEOUTS_BEFORE_BOT:
        # after commit it tells the sockets and wakes the bot (the timeout move was made
        # while the seat was still the player's)
        seat_abandon(game=game, seat=seat, reason=Seat.TIMEOUTS, now=now)
        streak["abandoned"] = True


def _tell_timeouts(game, streaks: dict) -> None:
    """One notice per event: the first timeout of a streak, or the seat handed to the bot
    (not one per timeout move, which a clock with no time left makes several of)."""
    for seat, streak in streaks.items():
        if streak["abandoned"]:
            tell(user=streak["user"], game=game, kind=events.TIMEOUT,
                  key=f"abandoned:{game.pk}:{seat}",
                  text=gettext_lazy("Game %(game)s: your time ran out %(n)s times in a row, "
                                    "so the bot plays your seat for the rest of the game "
                                    "and you rank last."),
                  params={"game": game.pk, "n": TIMEOUTS_BEFORE_BOT})
        elif streak["first_in_row"] == 1:
            tell(user=streak["user"], game=game, kind=events.TIMEOUT,
                  key=f"timeout:{game.pk}:{seat}:{streak['seq']}",
                  text=gettext_lazy("Game %(game)s: your time ran out and the bot moved "
                                    "for you. After %(n)s timeouts in a row it takes over "
                                    "your seat and you rank last."),
                  params={"game": game.pk, "n": TIMEOUTS_BEFORE_BOT})


def clocks_warn(now: datetime | None = None, limit: int = 500) -> int:
    """Remind correspondence players of their deadline: at the points they chose, else at
    the last fifth of the clock (clocks.reminders), each once a turn. Reads only the clocks
    whose reminder is due (indexed `warn_at`); each reminder is claimed with a conditional
    update, so two sweepers never send one twice."""
    now = now or timezone.now()
    sent = 0
    rows = (SeatClock.objects.filter(warn_at__lte=now, warned=False, running_since__isnull=False)
            .select_related("game")[:limit])
    for row in rows:
        tc = time_control_of(row.game)
        seats = {s.index: s for s in row.game.seats.select_related("user").filter(
            index=row.seat)}
        user = person_at(seats, row.seat)
        number = row.reminded
        row.reminded = number + 1
        following = reminder_next(row, row.clock, tc, seat_vacations(tc, seats).get(
            row.seat, ()), user) if tc is not None else None
        claimed = SeatClock.objects.filter(
            pk=row.pk, warned=False, reminded=number, running_since=row.running_since
        ).update(reminded=number + 1, warned=following is None, warn_at=following)
        if not claimed or user is None:
            continue  # the player moved, or another sweeper reminded first; or a bot
        with transaction.atomic():  # player_notice is sent inside a transaction
            _tell_almost_out(row, user, row.deadline, number)
        sent += 1
    return sent


def _tell_almost_out(row: SeatClock, user, due, number: int = 0) -> None:
    key = f"almost_out:{row.game_id}:{row.seat}:{row.running_since.timestamp():.6f}"
    tell(user=user, game=row.game, kind=events.ALMOST_OUT,
         key=key if number == 0 else f"{key}:{number}",
         # The deadline reads in the player's own time zone (notifications write it so).
         text=gettext_lazy("Game %(game)s: you are almost out of time (deadline "
                           "%(deadline)s).") if due else
         gettext_lazy("Game %(game)s: you are almost out of time."),
         params={"game": row.game_id, "deadline": due} if due else {"game": row.game_id})
