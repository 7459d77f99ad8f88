"""Periodic account housekeeping (beat schedules it; see CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from .services import guests_remove_unused


@shared_task
def guests_remove() -> int:
    """Remove guest accounts that never sat at a table (idempotent: a plain filter)."""
    return guests_remove_unused()
