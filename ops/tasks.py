"""The heartbeat: beat sends it, a worker runs it (ops.heartbeat)."""

from celery import shared_task


@shared_task(ignore_result=True)
def heartbeat() -> None:
    from .heartbeat import WORKER, stamp

    stamp(WORKER)
