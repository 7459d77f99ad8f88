"""However a game ends (the rules finish it, or the site aborts one that circles), one path
follows: games.events.game_ended, whose listeners stop the clocks, settle tournaments,
queue ratings and tell the players, each once and in words."""

from datetime import UTC, datetime, timedelta

import pytest
import time_machine

from clocks.models import SeatClock
from clocks.tasks import clocks_sweep
from games import services
from games.models import Game, Seat
from games.tasks import bot_move
from notifications.models import Notification
from ratings.models import RatingChange

from .helpers import committed

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("eager")]


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def _against_bots(user, time_control, rated=False) -> Game:
    with committed():
        game = services.game_create(creator=user, players=3, bots=["basic", "basic"],
                                    time_control=time_control, rated=rated)
    game.refresh_from_db()
    return game


def test_aborting_a_circling_game_stops_its_clocks_and_tells_the_player_once(
        clock, settings, ann):
    settings.BLAZE_MAX_GAME_MOVES = 100
    game = _against_bots(ann, {"kind": "correspondence", "days": 1}, rated=True)
    assert SeatClock.objects.filter(game=game, running_since__isnull=False).exists()
    Game.objects.filter(pk=game.pk).update(seq=100)  # as if it had circled for 100 moves
    with committed():
        assert bot_move(game.pk, 100) == 0
    game.refresh_from_db()
    assert game.status == Game.ABORTED

    assert not SeatClock.objects.filter(game=game, running_since__isnull=False).exists()
    assert not SeatClock.objects.filter(game=game, deadline__isnull=False).exists()
    clock.shift(timedelta(days=30))
    with committed():
        assert clocks_sweep() == 0  # nothing left for the sweeper in this game
    [note] = Notification.objects.filter(user=ann, game=game, kind=Notification.GAME_OVER)
    assert "kept going in circles" in note.text and "counts for nobody" in note.text
    assert not RatingChange.objects.filter(game=game).exists()


def test_a_live_clock_that_ran_out_sends_one_notice_per_event(clock, ann):
    """Out of time on a live clock without increment, every move of the seat times out at
    once: the player hears once that time ran out and once that the bot took the seat,
    not once per move."""
    game = _against_bots(ann, {"kind": "live", "minutes": 1})
    seat = Seat.objects.get(game=game, user=ann).index
    for _ in range(200):  # the bots move at once; ann never does
        game.refresh_from_db()
        if game.status != Game.PLAYING or Seat.objects.get(game=game, index=seat).abandoned:
            break
        clock.shift(timedelta(seconds=61))
        with committed():
            clocks_sweep()
    left = Seat.objects.get(game=game, index=seat)
    assert left.abandoned and left.abandoned_reason == Seat.TIMEOUTS
    assert SeatClock.objects.get(game=game, seat=seat).timeouts >= 3
    texts = list(Notification.objects.filter(user=ann, kind=Notification.TIMEOUT)
                 .order_by("pk").values_list("text", flat=True))
    assert len(texts) <= 2 and "you rank last" in texts[-1]
    assert "3 times in a row" in texts[-1]
