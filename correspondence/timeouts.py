"""Running out of time: the built-in bot moves for a player whose clock ran out (the third
timeout in a row hands the seat to the bot), and players almost out are warned."""

import random
from datetime import UTC, datetime
from functools import partial

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext as _

from games.bot_moves import bot_choose_move
from games.engine import view
from games.models import Game
from games.selectors import game_state
from games.services import move_play

from . import clock as C
from .clocks import CLOCK_FIELDS, clock_store, seat_rows, seat_vacations, time_control_of
from .models import Notification, SeatClock, SeatStatus
from .notifications import notify

TIMEOUTS_BEFORE_BOT = 3
TIMEOUT_BOT_LEVEL = "basic"


def deadline_expire(*, game_id: int, now: datetime | None = None) -> int:
    """Make the bot move for every seat of the game whose clock ran out; returns how many
    timeout moves were made. Skips a game another transaction holds (a move being made, or
    another sweeper): the next sweep looks again. Safe to run any number of times."""
    now = now or timezone.now()
    made = 0
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
                clock_store(row, row.clock, tc, vacations.get(row.seat, ()))
                row.save(update_fields=CLOCK_FIELDS)
            if target is None:
                break
            _timeout_move(game, target, seats[target.seat], now)
            made += 1
            game.refresh_from_db()
    return made


def _timeout_move(game, row: SeatClock, seat, now: datetime) -> None:
    """The built-in bot's move for a player out of time, answering the game's `seq`.
    Holding the game row lock. The move counts like any other."""
    state = game_state(game)
    move = bot_choose_move(view(state, row.seat), row.seat, TIMEOUT_BOT_LEVEL, random.Random())
    answered = game.seq
    if seat.bot_level:  # a bot seat whose task never came: play it, nobody to tell
        move_play(game_id=game.pk, seq=answered, move=move, bot_seat=row.seat)
        return
    in_row = row.timeouts_in_row + 1
    move_play(game_id=game.pk, user=seat.user, seq=answered, move=move)
    SeatClock.objects.filter(pk=row.pk).update(
        timeouts_in_row=in_row, timeouts=F("timeouts") + 1
    )
    abandoned = in_row >= TIMEOUTS_BEFORE_BOT
    if abandoned:
        seat.bot_level = TIMEOUT_BOT_LEVEL
        seat.save(update_fields=["bot_level"])
        SeatStatus.objects.update_or_create(
            game=game, seat=row.seat, defaults={"abandoned": True, "abandoned_at": now}
        )
    def text():
        said = _("Game %(game)s: your time ran out and the bot moved for you.") % {
            "game": game.pk}
        if abandoned:
            return said + " " + _("After three timeouts in a row the bot plays your seat for "
                                  "the rest of the game.")
        return said + " " + _("(%(n)d in a row; after %(limit)d the bot takes over your "
                              "seat.)") % {"n": in_row, "limit": TIMEOUTS_BEFORE_BOT}

    notify(user=seat.user, game=game, kind=Notification.TIMEOUT,
           key=f"timeout:{game.pk}:{row.seat}:{answered}", text=text)


def seat_abandoned(game_id: int, seat: int) -> bool:
    return SeatStatus.objects.filter(game_id=game_id, seat=seat, abandoned=True).exists()


def _almost_out_text(game_id: int, due) -> str:
    if due is None:
        return _("Game %(game)s: you are almost out of time.") % {"game": game_id}
    return _("Game %(game)s: you are almost out of time (deadline %(due)s UTC).") % {
        "game": game_id, "due": date_format(due.astimezone(UTC), "SHORT_DATETIME_FORMAT")}


def clocks_warn(now: datetime | None = None, limit: int = 500) -> int:
    """Tell players whose correspondence clock is down to its last fifth. Each turn is
    warned once: the warning is claimed with a conditional update."""
    now = now or timezone.now()
    sent = 0
    rows = (SeatClock.objects.filter(warn_at__lte=now, warned=False, running_since__isnull=False)
            .select_related("game")[:limit])
    for row in rows:
        claimed = SeatClock.objects.filter(
            pk=row.pk, warned=False, running_since=row.running_since
        ).update(warned=True, warn_at=None)
        if not claimed:
            continue  # the player moved, or another sweeper warned first
        seat = row.game.seats.select_related("user").filter(index=row.seat).first()
        if seat is None or seat.user is None or seat.bot_level:
            continue
        due = row.deadline
        notify(
            user=seat.user, game=row.game, kind=Notification.ALMOST_OUT,
            key=f"almost_out:{row.game_id}:{row.seat}:{row.running_since.timestamp():.6f}",
            text=partial(_almost_out_text, row.game_id, due),
        )
        sent += 1
    return sent
