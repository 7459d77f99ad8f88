"""Background work on tournaments: thin wrappers over the services."""

from celery import shared_task

from . import services


@shared_task(ignore_result=True)
def tournament_advance(tournament_id: int) -> str:
    """Pair the next round or finish once the current round's games are all done."""
    return services.tournament_advance(tournament_id=tournament_id)


@shared_task(ignore_result=True)
def tournaments_tick() -> dict:
    """Beat, every 30 s: start due tournaments and advance finished rounds (idempotent)."""
    return services.tournaments_tick()
