"""Races closed in the database, with real threads on PostgreSQL: a move that waits on the
game's lock while its player resigns is refused once the resignation commits."""

import threading
import time

import pytest
from django.db import connection, connections, transaction

from games import services
from games.models import Game
from tests.games_helpers import random_legal_move

pytestmark = pytest.mark.skipif(
    connection.vendor != "postgresql", reason="row locks need PostgreSQL"
)


def _blocked_on_a_lock() -> bool:
    with connections["default"].cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE wait_event_type = 'Lock'"
                       " AND datname = current_database()")
        return cursor.fetchone()[0] > 0


def wait_until_blocked() -> None:
    """Until another connection waits on a row lock (polled: the order of events is
    forced, never timed)."""
    for _ in range(3000):
        if _blocked_on_a_lock():
            return
        time.sleep(0.01)
    raise AssertionError("the other statement never waited on the lock")


def in_thread(fn, results: dict, key: str) -> threading.Thread:
    def run():
        try:
            results[key] = fn()
        except Exception as e:
            results[key] = e
        finally:
            connections.close_all()

    thread = threading.Thread(target=run)
    thread.start()
    return thread


@pytest.mark.django_db(transaction=True)
def test_a_move_waiting_while_its_player_resigns_is_refused(ann, bob, cat):
    import random

    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    seat = game.waiting_on[0]
    mover = game.seats.get(index=seat).user
    move = random_legal_move(game, seat, random.Random(1))
    resigned, go_on, results = threading.Event(), threading.Event(), {}

    def resign():
        with transaction.atomic():
            services.game_resign(game_id=game.pk, user=mover)
            resigned.set()
            go_on.wait(60)  # commit only once the move waits on the lock

    resigner = in_thread(resign, results, "resign")
    assert resigned.wait(60)
    mover_thread = in_thread(lambda: services.move_play(
        game_id=game.pk, user=mover, seq=game.seq, move=move), results, "move")
    # the move's locked read: the only statement that can wait (its text may be the
    # EXECUTE of a statement prepared on the connection, lib.rows)
    wait_until_blocked()
    go_on.set()
    resigner.join(60)
    mover_thread.join(60)

    assert isinstance(results["move"], services.GameError), results["move"]
    assert results["move"].status == 403 and "left" in results["move"].message


@pytest.mark.django_db
def test_a_player_who_resigned_cannot_move_for_the_bot(ann, bob, cat):
    import random

    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    seat = game.waiting_on[0]
    mover = game.seats.get(index=seat).user
    move = random_legal_move(game, seat, random.Random(1))
    with transaction.atomic():  # the bot's turn is not queued: the seat waits for it
        services.game_resign(game_id=game.pk, user=mover)
    with pytest.raises(services.Forbidden, match="left"):
        services.move_play(game_id=game.pk, user=mover, seq=game.seq, move=move)
    assert Game.objects.get(pk=game.pk).seq == 0


def _play_until_bets(game: Game, users: dict, rng) -> Game:
    """Random legal moves through the service until the game waits on bets."""
    from games.selectors import game_state

    while game_state(game).stage != "bet":
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=users[seat], seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game = Game.objects.get(pk=game.pk)
    return game


@pytest.mark.django_db(transaction=True)
def test_simultaneous_bets_all_land(ann, bob, cat, dan):
    import random

    game = services.game_create(creator=ann, players=4)
    for user in (bob, cat, dan):
        services.game_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    users = {s.index: s.user for s in game.seats.select_related("user")}
    game = _play_until_bets(game, users, random.Random(4))
    bettors, seen = list(game.waiting_on), game.seq
    assert len(bettors) == 4
    barrier, results, threads = threading.Barrier(len(bettors)), {}, []
    for seat in bettors:
        move = {"move": "bet", "on": (seat + 1) % 4, "value": 0}

        def bet(seat=seat, move=move):
            barrier.wait(60)
            seq = seen
            for _ in range(len(bettors)):  # as the table page: a 409 sends the bet again
                try:
                    return services.move_play(game_id=game.pk, user=users[seat], seq=seq,
                                              move=move)
                except services.StaleSeq:
                    seq = Game.objects.get(pk=game.pk).seq
            raise AssertionError("the bet never landed")

        threads.append(in_thread(bet, results, str(seat)))
    for thread in threads:
        thread.join(60)
    refused = {k: v for k, v in results.items() if isinstance(v, Exception)}
    assert not refused, refused
    game = Game.objects.get(pk=game.pk)
    assert game.seq == seen + 4


@pytest.mark.django_db
def test_a_bet_at_a_seq_that_is_not_current_is_refused_as_api_md_says(ann, bob, cat, dan):
    import random

    game = services.game_create(creator=ann, players=4)
    for user in (bob, cat, dan):
        services.game_join(game_id=game.pk, user=user)
    game = Game.objects.get(pk=game.pk)
    users = {s.index: s.user for s in game.seats.select_related("user")}
    game = _play_until_bets(game, users, random.Random(4))
    first, second = game.waiting_on[:2]
    seen = game.seq
    bet = {"move": "bet", "on": (first + 1) % 4, "value": 1}
    services.move_play(game_id=game.pk, user=users[first], seq=seen, move=bet)
    # another's bet answering the same seq is 409 with the current seq, and lands when sent
    # again at that seq
    with pytest.raises(services.StaleSeq):
        services.move_play(game_id=game.pk, user=users[second], seq=seen,
                           move={"move": "bet", "on": first, "value": 0})
    services.move_play(game_id=game.pk, user=users[second], seq=seen + 1,
                       move={"move": "bet", "on": first, "value": 0})
    # the same bet again does not
    with pytest.raises(services.StaleSeq):
        services.move_play(game_id=game.pk, user=users[first], seq=seen, move=bet)
    # and a seq from before the bets began is stale for a bet too
    with pytest.raises(services.StaleSeq):
        services.move_play(game_id=game.pk, user=users[game.waiting_on[0]], seq=seen - 1,
                           move={"move": "bet", "on": first, "value": 0})
    assert Game.objects.get(pk=game.pk).seq == seen + 2
