"""Background work of the clocks: the deadline sweeper and live deadline checks. Every task
is safe to run twice: work is claimed with a row lock or a conditional update."""

import logging

from celery import shared_task
from django.utils import timezone

from games.models import Game

from .models import SeatClock
from .timeouts import clocks_warn, deadline_expire

log = logging.getLogger(__name__)

SWEEP_LIMIT = 200


@shared_task(ignore_result=True)
def clocks_sweep() -> int:
    """Every 30 s (beat): time out the seats whose deadline passed, warn those almost out.
    Returns the number of timeout moves made."""
    now = timezone.now()
    game_ids = (
        SeatClock.objects.filter(deadline__lte=now, running_since__isnull=False)
        .order_by("deadline").values_list("game_id", flat=True)[:SWEEP_LIMIT]
    )
    made = 0
    for game_id in dict.fromkeys(game_ids):  # each game once, most overdue first
        try:
            made += deadline_expire(game_id=game_id, now=now)
        except Exception:  # one broken game must not stop the others
            log.exception("deadline_expire failed for game %s", game_id)
    clocks_warn(now)
    return made


@shared_task(ignore_result=True)
def deadline_check(game_id: int, seq: int) -> int:
    """A live game's clock may run out about now: time it out unless the game moved on."""
    from .clocks import live_check_fired, live_check_rearm

    live_check_fired(game_id)
    if not Game.objects.filter(pk=game_id, seq=seq, status=Game.PLAYING).exists():
        live_check_rearm(game_id)  # moves came first: check at the deadline they set
        return 0
    return deadline_expire(game_id=game_id)


# Tasks queued before clocks had an app of their own carry the old names (a live deadline
# check waits up to LIVE_CHECK_MAX_SECONDS in the broker): still accepted.
@shared_task(name="correspondence.tasks.clocks_sweep", ignore_result=True)
def clocks_sweep_old_name() -> int:
    return clocks_sweep()


@shared_task(name="correspondence.tasks.deadline_check", ignore_result=True)
def deadline_check_old_name(game_id: int, seq: int) -> int:
    return deadline_check(game_id, seq)
