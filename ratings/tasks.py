from celery import shared_task

from .services import game_finished_record


@shared_task(name="ratings.tasks.rating_update")
def rating_update(game_id: int) -> None:
    """Queue with transaction.on_commit when a game finishes; safe to run twice."""
    game_finished_record(game_id=game_id)
