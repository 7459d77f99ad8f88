import random
import threading

import pytest
from django.db import connection

from games import services
from games.engine import legal_moves, view
from games.models import Game, Move
from games.selectors import game_state, game_state_rebuild, game_view_for, state_cache_clear
from tests.conftest import make_user
from tests.games_helpers import random_legal_move


def _started_game(users):
    game = services.game_create(creator=users[0], players=len(users))
    for user in users[1:]:
        game = services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def _user_at(game, seat):
    return game.seats.get(index=seat).user


def _play_random(game, moves: int, rng) -> Game:
    for _ in range(moves):
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            break
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=_user_at(game, seat), seq=game.seq,
                           move=random_legal_move(game, seat, rng))
    game.refresh_from_db()
    return game


@pytest.mark.django_db
def test_starting_deals_secretly_and_stores_the_deal(ann, bob, cat):
    game = _started_game([ann, bob, cat])
    assert game.status == Game.PLAYING and game.started is not None
    assert len(game.deal["rounds"]) == 2 and game.seq == 0
    assert sorted(game.seats.values_list("index", flat=True)) == [0, 1, 2]


@pytest.mark.django_db
def test_the_state_rebuilt_from_the_move_log_gives_the_same_views(ann, bob, cat, dan):
    game = _play_random(_started_game([ann, bob, cat, dan]), 60, random.Random(5))
    cached = game_state(game)
    def game_view(seat):  # clocks tick with the wall clock: not part of the game's state
        return {k: v for k, v in game_view_for(game, _user_at(game, seat)).items()
                if k != "clocks"}

    views = [game_view(s) for s in range(4)]
    state_cache_clear()
    rebuilt = game_state_rebuild(game)
    assert rebuilt is not cached
    for seat in range(4):
        assert view(rebuilt, seat) == view(cached, seat)
        assert game_view(seat) == views[seat]
    assert Move.objects.filter(game=game).count() == game.seq


@pytest.mark.django_db
def test_leaving_before_the_start_frees_the_seat(ann, bob):
    game = services.game_create(creator=ann, players=3)
    services.game_join(game_id=game.pk, user=bob)
    services.game_leave(game_id=game.pk, user=bob)
    assert list(game.seats.values_list("user__username", flat=True)) == ["ann"]
    services.game_leave(game_id=game.pk, user=ann)
    game.refresh_from_db()
    assert game.status == Game.ABORTED


@pytest.mark.django_db
def test_a_private_table_needs_its_invite_code(ann, bob):
    game = services.game_create(creator=ann, players=3, private=True)
    with pytest.raises(services.GameNotFound):  # to an outsider it does not exist
        services.game_join(game_id=game.pk, user=bob)
    services.game_join(game_id=game.pk, user=bob, invite_code=game.invite_code)
    assert game.seats.count() == 2


@pytest.mark.django_db
def test_bots_play_their_turns_until_a_person_is_waited_on(
        ann, django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = services.game_create(creator=ann, players=4, bots=["random", "basic", "strong"])
    game.refresh_from_db()
    assert game.status == Game.PLAYING
    rng = random.Random(11)
    for _ in range(500):
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            break
        bot_seats = set(game.seats.filter(bot_level__isnull=False).values_list("index", flat=True))
        assert not bot_seats & set(game.waiting_on), "a bot is waited on after its task ran"
        seat = game.seats.get(user=ann).index
        with django_capture_on_commit_callbacks(execute=True):
            services.move_play(game_id=game.pk, user=ann, seq=game.seq,
                               move=random_legal_move(game, seat, rng))
    assert game.status == Game.FINISHED
    assert Move.objects.filter(game=game).count() == game.seq


@pytest.mark.django_db
def test_the_bot_task_does_nothing_when_the_game_moved_on(ann, bob):
    from games.tasks import bot_move

    game = services.game_create(creator=ann, players=3, bots=["basic", "basic"])
    game.refresh_from_db()
    assert bot_move(game.pk, game.seq + 5) == 0
    assert Move.objects.filter(game=game).count() == 0


def _canonical(move: dict) -> dict:
    """The order of cards within one move does not matter to the rules."""
    return {k: sorted(v) if k in ("cards", "pairs") else v for k, v in move.items()}


def test_the_bot_seam_only_offers_legal_moves():
    from games.bot_moves import bot_choose_move
    from games.engine import new_game

    rng = random.Random(3)
    finished = 0
    for _ in range(20):
        state = new_game(rng.choice([3, 4, 5]), rng)
        for _ in range(3000):
            if state.finished:
                finished += 1
                break
            seat = state.waiting_on[0]
            move = {**bot_choose_move(view(state, seat), seat, "basic", rng), "seat": seat}
            assert _canonical(move) in [_canonical(m) for m in legal_moves(state, seat)]
            state.apply(move)
    assert finished >= 18


@pytest.mark.skipif(connection.vendor != "postgresql",
                    reason="racing connections need PostgreSQL's row locks (SQLite locks the "
                           "whole file and refuses the second writer)")
@pytest.mark.django_db(transaction=True)
def test_two_connections_racing_the_same_seq_apply_exactly_one_move():
    users = [make_user(name) for name in ("ann", "bob", "cat")]
    game = _started_game(users)
    seat = game.waiting_on[0]
    user = _user_at(game, seat)
    move = random_legal_move(game, seat, random.Random(9))
    barrier = threading.Barrier(2)
    outcomes = []

    def play():
        try:
            barrier.wait()
            services.move_play(game_id=game.pk, user=user, seq=0, move=move)
            outcomes.append("applied")
        except services.StaleSeq as e:
            outcomes.append(("stale", e.current))
        finally:
            connection.close()

    threads = [threading.Thread(target=play) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes, key=str) == sorted(["applied", ("stale", 1)], key=str)
    assert Move.objects.filter(game=game).count() == 1
    game.refresh_from_db()
    assert game.seq == 1
