"""What clocks tell players. Clocks do not deliver anything themselves: every notice goes
out as games.events.player_notice, which the notifications app delivers."""

from django.utils.translation import gettext_lazy

from games import events


def tell(*, user, game, kind: str, key: str, text, params: dict | None = None) -> None:
    """Call inside the writer's transaction (player_notice insists)."""
    events.player_notice.send(user=user, game=game, kind=kind, key=key, subject=None,
                              text=text, params=params)


def tell_turn(game, seat) -> None:
    """"Your turn" to the person at `seat` (a Seat row or None), once per move."""
    if seat is None or seat.user_id is None or seat.bot_level:
        return
    tell(user=seat.user, game=game, kind=events.YOUR_TURN,
         key=f"your_turn:{game.pk}:{seat.index}:{game.seq}",
         text=gettext_lazy("Game %(game)s: it is your turn."), params={"game": game.pk})
