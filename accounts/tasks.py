"""Periodic account housekeeping (beat schedules it; see CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from .services import guests_remove_unused


@shared_task
def guests_remove() -> int:
    """Remove guest accounts that never sat at a table (idempotent: a plain filter)."""
    return guests_remove_unused()


@shared_task
def sessions_clear() -> int:
    """Delete expired sessions (the table only grows otherwise), like `manage.py
    clearsessions`, in bounded batches (accounts.services.sessions_clear_expired)."""
    from .services import sessions_clear_expired

    return sessions_clear_expired()
