"""Record each periodic job's runs on a row, from Celery's task signals in the worker."""

import logging

from celery import signals
from django.conf import settings
from django.db.models import F
from django.utils import timezone

from .models import JobRun

log = logging.getLogger(__name__)


def periodic_tasks() -> set[str]:
    return {job["task"] for job in settings.CELERY_BEAT_SCHEDULE.values()}


def _started(sender=None, task=None, **_):
    if task is None or task.name not in periodic_tasks():
        return
    try:
        JobRun.objects.update_or_create(task=task.name, defaults={
            "started": timezone.now(), "worker": task.request.hostname or ""})
    except Exception:  # a status record must never fail the job itself
        log.exception("could not record the start of %s", task.name)


def _finished(sender=None, task=None, state=None, **_):
    if task is None or task.name not in periodic_tasks():
        return
    try:
        JobRun.objects.filter(task=task.name).update(
            finished=timezone.now(), ok=state == "SUCCESS", runs=F("runs") + 1)
    except Exception:
        log.exception("could not record the end of %s", task.name)


def connect() -> None:
    signals.task_prerun.connect(_started, weak=False, dispatch_uid="ops.job_started")
    signals.task_postrun.connect(_finished, weak=False, dispatch_uid="ops.job_finished")
