"""Are a worker and beat alive? Beat sends the heartbeat task every HEARTBEAT_SECONDS
(noted on sending, in beat's process) and a worker runs it (noted by the task); a part
whose last note is older than a few intervals is not alive.

Rows in the database, not cache keys: every process sees them, whatever cache it has.
"""

import logging
from datetime import timedelta

from celery import signals
from django.conf import settings
from django.utils import timezone

from .models import Heartbeat

log = logging.getLogger(__name__)
TASK = "ops.tasks.heartbeat"
BEAT, WORKER = "beat", "worker"
MISSED = 3  # intervals without a note before a part counts as dead


def stamp(part: str) -> None:
    try:
        Heartbeat.objects.update_or_create(part=part, defaults={"at": timezone.now()})
    except Exception as e:  # a heartbeat must never fail the job or the publishing
        log.warning("could not note the %s heartbeat: %s", part, type(e).__name__)


def _published(sender=None, **_):
    if sender == TASK:  # only beat sends it
        stamp(BEAT)


def alive() -> dict:
    """{"worker": bool, "beat": bool}: one query."""
    since = timezone.now() - timedelta(seconds=MISSED * settings.BLAZE_HEARTBEAT_SECONDS)
    fresh = set(Heartbeat.objects.filter(at__gte=since).values_list("part", flat=True))
    return {WORKER: WORKER in fresh, BEAT: BEAT in fresh}


def connect() -> None:
    signals.after_task_publish.connect(_published, weak=False, dispatch_uid="ops.heartbeat")
