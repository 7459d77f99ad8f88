"""How tournaments react to games (connected in apps.py)."""

from games import events

from .services import tournament_game_finished


def on_game_ended(*, game, reason) -> None:
    """A tournament game finished or was aborted: its round may be complete."""
    tournament_game_finished(game_id=game.pk)


def connect() -> None:
    events.game_ended.connect(on_game_ended, when=events.IN_TRANSACTION, order=20,
                              name="tournaments.tournament_game_finished")
