"""Periodic account housekeeping (beat schedules it; see CELERY_BEAT_SCHEDULE)."""

from celery import shared_task

from .services import guests_remove_unused


@shared_task
def guests_remove() -> int:
    """Remove guest accounts that never sat at a table (idempotent: a plain filter)."""
    return guests_remove_unused()


@shared_task
def sessions_clear() -> None:
    """Delete expired sessions (the table only grows otherwise): one DELETE on the expiry
    index, like `manage.py clearsessions`."""
    from importlib import import_module

    from django.conf import settings

    import_module(settings.SESSION_ENGINE).SessionStore.clear_expired()
