"""What the staff status page shows: queues, periodic jobs, workers, waiting and stalled
games, live sockets. Every part is read independently: one broken part shows as such."""

import json
import logging
from datetime import timedelta

from django.conf import settings
from django.utils import timezone

from clocks.models import SeatClock
from games.live import live_sockets
from games.watchdog import games_waiting_on_bots, stall_seconds, stalled_bot_games
from lib.queues import queue_names

from .models import JobRun

log = logging.getLogger(__name__)
TIMEOUT = 1.0  # seconds for each call to Redis or the workers
LISTED = 50  # games listed per table


def _redis():
    import redis

    return redis.Redis.from_url(settings.CELERY_BROKER_URL, socket_timeout=TIMEOUT,
                                socket_connect_timeout=TIMEOUT)


def queues() -> list[dict]:
    """[{"name", "waiting", "held"}]: tasks in the queue, and taken by a worker but not yet
    acknowledged (running, or waiting for their countdown)."""
    names = queue_names(settings.CELERY_TASK_DEFAULT_QUEUE)
    client = _redis()
    try:
        held = dict.fromkeys(names, 0)
        for raw in client.hvals("unacked"):  # kombu's record of unacknowledged tasks
            routing_key = json.loads(raw)[2]
            if routing_key in held:
                held[routing_key] += 1
        return [{"name": n, "waiting": client.llen(n), "held": held[n]} for n in names]
    finally:
        client.close()


def jobs() -> list[dict]:
    """Each beat entry with its last run; "late" when it has not finished for 3 periods."""
    now = timezone.now()
    runs = {r.task: r for r in JobRun.objects.all()}
    out = []
    for name, entry in sorted(settings.CELERY_BEAT_SCHEDULE.items()):
        every = float(entry["schedule"])
        run = runs.get(entry["task"])
        finished = run.finished if run else None
        out.append({
            "name": name, "task": entry["task"], "every": every, "run": run,
            "late": finished is None or now - finished > timedelta(seconds=3 * every),
        })
    return out


def workers() -> list[dict]:
    """Workers that answer now and read this site's queues: [{"name", "queues"}]."""
    from celery import current_app as app  # blaze_site.celery's, once the worker or web has set it

    ours = set(queue_names(settings.CELERY_TASK_DEFAULT_QUEUE))
    replies = app.control.inspect(timeout=TIMEOUT).active_queues() or {}
    return sorted(
        ({"name": name, "queues": sorted(q["name"] for q in qs if q["name"] in ours)}
         for name, qs in replies.items() if any(q["name"] in ours for q in qs)),
        key=lambda w: w["name"])


def _ages(waits, now) -> list[dict]:
    return [{"game_id": w.game_id, "seq": w.seq, "seconds": (now - w.since).total_seconds()}
            for w in waits]


def bot_games() -> dict:
    now = timezone.now()
    return {"waiting": _ages(games_waiting_on_bots(limit=LISTED), now),
            "stalled": _ages(stalled_bot_games(now, limit=LISTED), now),
            "stall_seconds": stall_seconds()}


def overdue_clocks() -> list[dict]:
    """Running clocks past their deadline by more than a sweep: nobody timed them out."""
    now = timezone.now()
    rows = (SeatClock.objects.filter(
        running_since__isnull=False,
        deadline__lt=now - timedelta(seconds=2 * settings.BLAZE_WATCHDOG_SECONDS))
        .order_by("deadline").values_list("game_id", "seat", "deadline")[:LISTED])
    return [{"game_id": g, "seat": s, "seconds": (now - d).total_seconds()}
            for g, s, d in rows]


def _part(read):
    try:
        return {"ok": True, "value": read()}
    except Exception:
        log.exception("status part %s failed", read.__name__)
        return {"ok": False, "value": None}


def status() -> dict:
    broker = not settings.BLAZE_INMEMORY
    return {
        "in_process": not broker,  # no broker: tasks run in the web process
        "queues": _part(queues) if broker else None,
        "workers": _part(workers) if broker else None,
        "jobs": _part(jobs),
        "bots": _part(bot_games),
        "clocks": _part(overdue_clocks),
        "sockets": _part(live_sockets.per_process),
    }
