from celery import shared_task

from .challenges import challenges_expire


@shared_task
def invitations_expire() -> int:
    """Periodic: open invitations past their time become expired."""
    return challenges_expire()
