"""The seam between games and the apps above: which listeners run, in what order, when."""

import random

import pytest

from games import events, services
from games.models import Game, Move
from tests.clocks.helpers import committed, started_game, user_at
from tests.games_helpers import random_legal_move

pytestmark = pytest.mark.django_db


def _pinned(event) -> list[tuple[str, str]]:
    return [(lis.name, lis.when) for lis in event.listeners()]


def test_every_event_runs_its_listeners_in_the_pinned_order():
    assert _pinned(events.game_started) == [
        ("clocks.clocks_start", events.IN_TRANSACTION),
    ]
    assert _pinned(events.move_played) == [
        ("clocks.clocks_on_move", events.IN_TRANSACTION),
    ]
    assert _pinned(events.game_ended) == [
        ("ratings.rating_update", events.ON_COMMIT),
        ("tournaments.tournament_game_finished", events.IN_TRANSACTION),
        ("clocks.clocks_stop", events.IN_TRANSACTION),
        ("notifications.notify_game_ended", events.IN_TRANSACTION),
    ]
    assert _pinned(events.player_notice) == [
        ("notifications.notify", events.IN_TRANSACTION),
    ]


def test_listeners_run_by_their_order_not_by_when_they_were_connected():
    event = events.Event("probe", ("x",))
    event.connect(lambda x: None, when=events.IN_TRANSACTION, order=30, name="c")
    event.connect(lambda x: None, when=events.ON_COMMIT, order=10, name="a")
    event.connect(lambda x: None, when=events.IN_TRANSACTION, order=20, name="b")
    event.connect(lambda x: None, when=events.IN_TRANSACTION, order=5, name="c")  # replaces
    assert [lis.name for lis in event.listeners()] == ["c", "a", "b"]
    with pytest.raises(ValueError, match="IN_TRANSACTION or ON_COMMIT"):
        event.connect(lambda x: None, when="later", order=1, name="d")


@pytest.fixture
def recorded():
    """Every event as the listeners see it: inside the transaction and after commit."""
    log = []

    def recorder(event, when):
        def record(**payload):
            game = payload["game"]
            log.append((event.name, when, game.status, game.seq, payload.get("reason")))
        return record

    names = []
    for event in events.EVENTS:
        for when in (events.IN_TRANSACTION, events.ON_COMMIT):
            name = f"test.{event.name}.{when}"
            event.connect(recorder(event, when), when=when, order=99, name=name)
            names.append((event, name))
    yield log
    for event, name in names:
        event.disconnect(name)


def test_a_game_sends_started_then_each_move_then_ended_once(recorded, eager_tasks, ann, bob,
                                                              cat):
    game = started_game([ann, bob, cat], time_control={"kind": "live", "minutes": 60})
    assert recorded == [("game_started", events.IN_TRANSACTION, Game.PLAYING, 0, None),
                        ("game_started", events.ON_COMMIT, Game.PLAYING, 0, None)]
    rng = random.Random(7)
    while game.status == Game.PLAYING:
        seat = game.waiting_on[0]
        with committed():
            services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq,
                               move=random_legal_move(game, seat, rng))
            # after-commit listeners wait for the commit
            assert recorded[-1][1] == events.IN_TRANSACTION
        game.refresh_from_db()
    moves = Move.objects.filter(game=game).count()
    played = [r for r in recorded if r[0] == "move_played" and r[1] == events.IN_TRANSACTION]
    assert [r[3] for r in played] == list(range(1, moves + 1))
    last_move = [r[:1] + r[2:] for r in recorded[-4:]]
    assert [r[1] for r in recorded[-4:]] == [events.IN_TRANSACTION] * 2 + [events.ON_COMMIT] * 2
    assert last_move == [("move_played", Game.FINISHED, moves, None),
                         ("game_ended", Game.FINISHED, moves, events.FINISHED)] * 2
    assert sum(r[0] == "game_ended" for r in recorded) == 2


def test_a_refused_move_sends_nothing(recorded, ann, bob, cat):
    game = started_game([ann, bob, cat])
    recorded.clear()
    seat = game.waiting_on[0]
    with committed(), pytest.raises(services.StaleSeq):
        services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq + 1,
                           move=random_legal_move(game, seat, random.Random(1)))
    assert recorded == []


def test_a_listener_that_fails_inside_the_transaction_refuses_the_move(recorded, ann, bob,
                                                                      cat):
    game = started_game([ann, bob, cat])
    recorded.clear()

    def broken(**payload):
        raise RuntimeError("listener broke")

    events.move_played.connect(broken, when=events.IN_TRANSACTION, order=1, name="test.broken")
    seat = game.waiting_on[0]
    try:
        with committed(), pytest.raises(RuntimeError, match="listener broke"):
            services.move_play(game_id=game.pk, user=user_at(game, seat), seq=game.seq,
                               move=random_legal_move(game, seat, random.Random(1)))
    finally:
        events.move_played.disconnect("test.broken")
    game.refresh_from_db()
    assert game.seq == 0 and not Move.objects.filter(game=game).exists()
    assert recorded == []
