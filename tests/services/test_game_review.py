"""The strong bot's review of a finished game (games.reviews): made after a game between
people, from each human seat's view only, within the site's limits, bounded in size."""

import json
import random

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import bots, reviews, services
from games.engine import view
from games.models import Game, GameReview, Move
from games.selectors import game_record, initial_state
from tests.games_helpers import assert_view_hides_cards, random_legal_move

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_reviews(settings):
    settings.BLAZE_REVIEW_ITERATIONS = 100
    settings.BLAZE_REVIEW_WITHOUT_WORKER = True  # tasks run in-process here
    settings.BLAZE_REVIEW_GAME_ITERATIONS = 100
    settings.BLAZE_REVIEW_MAX_DECISIONS = 2000  # random play makes long games
    settings.BLAZE_REVIEW_MARGIN = 0.0


def play_to_end(game, rng, *, until=None, after_commit=None):
    """Random legal moves by the people waited on; with `after_commit`
    (django_capture_on_commit_callbacks) each move's tasks run as it commits (bot turns,
    the review)."""
    while True:
        game.refresh_from_db()
        if game.status != Game.PLAYING or (until is not None and game.seq >= until):
            return game
        seat = next(s for s in game.seats.filter(index__in=game.waiting_on, user__isnull=False,
                                                 bot_level__isnull=True))
        move = random_legal_move(game, seat.index, rng)
        if after_commit is None:
            services.move_play(game_id=game.pk, user=seat.user, seq=game.seq, move=move)
        else:
            with after_commit(execute=True):
                services.move_play(game_id=game.pk, user=seat.user, seq=game.seq, move=move)


def people_game(*users, seed=1, private=False):
    game = services.game_create(creator=users[0], players=len(users), private=private)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user,
                           invite_code=game.invite_code if private else "")
    game.refresh_from_db()
    return play_to_end(game, random.Random(seed))


def review_to_end(**kwargs) -> GameReview:
    while (outcome := reviews.review_work(**kwargs)) == "more":
        pass
    assert outcome in ("done", "skipped"), outcome
    return GameReview.objects.order_by("-finished").first()


def test_a_finished_game_between_people_is_reviewed_after_it_ends(
        ann, bob, cat, django_capture_on_commit_callbacks):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    rng = random.Random(2)
    play_to_end(game, rng, until=20)
    assert not GameReview.objects.exists()  # nothing of it while the game is played
    game.refresh_from_db()
    play_to_end(game, rng, after_commit=django_capture_on_commit_callbacks)  # tasks eager
    review = GameReview.objects.get(game=game)
    assert review.status == GameReview.DONE
    human = Move.objects.filter(game=game).exclude(payload__move="bet").count()
    assert review.reviewed == human and review.next_seq == game.seq
    assert review.decisions, "random play leaves the bot something to say"
    for d in review.decisions:
        assert 0 <= d["p_played"] <= 1 and 0 <= d["p_best"] <= 1
        assert bots.move_key(d["played"]) != bots.move_key(d["best"])
        played = Move.objects.get(game=game, seq=d["seq"])
        d["played"].pop("over", None)  # a rejection's table cards, for the page's words
        assert played.seat == d["seat"] and {**d["played"], "seat": d["seat"]} == played.payload


def test_the_bot_judges_each_decision_from_that_seats_view_only(
        ann, bob, monkeypatch, django_capture_on_commit_callbacks):
    seen = []
    real = bots.review_move

    def recording(state_view, seat, played, **kwargs):
        seen.append((json.loads(json.dumps(state_view)), seat, played))
        return real(state_view, seat, played, **kwargs)

    monkeypatch.setattr(reviews.bots, "review_move", recording)
    game = services.game_create(creator=ann, players=3, bots=["basic"])
    with django_capture_on_commit_callbacks(execute=True):
        services.game_join(game_id=game.pk, user=bob)
    game = play_to_end(game, random.Random(5), after_commit=django_capture_on_commit_callbacks)
    assert GameReview.objects.get(game=game).status == GameReview.DONE
    ann_seat = game.seats.get(user=ann).index
    assert seen and all(seat != game.seats.get(bot_level="basic").index for _v, seat, _p in seen)
    state = initial_state(game.deal)
    payloads = list(Move.objects.filter(game=game).order_by("seq")
                    .values_list("payload", flat=True))
    calls = iter(seen)
    for payload in payloads:
        if payload["seat"] in (ann_seat, game.seats.get(user=bob).index) \
                and payload["move"] != "bet":
            state_view, seat, played = next(calls)
            assert seat == payload["seat"] and played == payload
            assert state_view == json.loads(json.dumps(view(state, seat)))
            assert_view_hides_cards(state_view, state, seat)
        state.apply(payload)
    assert next(calls, None) is None


def test_games_without_people_and_imported_records_are_not_reviewed(ann, bob, cat):
    game = people_game(ann, bob, cat, seed=3)
    bot_game = Game.objects.create(players=3, status=Game.FINISHED, deal=game.deal,
                                   seq=game.seq)
    seats = []
    for i in range(3):
        seats.append(bot_game.seats.create(index=i, bot_level="basic"))
    assert reviews.review_request(game=bot_game, seats=seats) is None
    record = game_record(game)
    imported = services.record_import(user=ann, record=record)
    assert imported.imported
    assert reviews.review_request(game=imported, seats=list(imported.seats.all())) is None
    assert list(GameReview.objects.values_list("game_id", flat=True)) == [game.pk]


def test_at_most_the_allowed_reviews_run_at_once_and_per_hour(ann, bob, cat, settings):
    settings.BLAZE_REVIEW_RUNNING = 1
    first = people_game(ann, bob, cat, seed=1)
    second = people_game(ann, bob, cat, seed=2)
    taken = reviews.review_claim()
    assert taken.game_id == first.pk and taken.status == GameReview.RUNNING
    assert reviews.review_claim() is None  # one under way, held by its worker
    assert GameReview.objects.get(game=second).status == GameReview.PENDING
    GameReview.objects.filter(game=first).update(lease_until=None)  # its worker died
    assert reviews.review_claim().game_id == first.pk  # taken up again, not a new one
    settings.BLAZE_REVIEW_RUNNING = 5
    settings.BLAZE_REVIEW_PER_HOUR = 1
    assert reviews.review_claim() is None  # one began this hour
    settings.BLAZE_REVIEW_PER_HOUR = 2
    assert reviews.review_claim().game_id == second.pk


def test_a_review_that_keeps_failing_is_given_up_and_holds_nobody_back(ann, bob, cat):
    from datetime import timedelta

    from django.utils import timezone

    first = people_game(ann, bob, cat, seed=1)
    second = people_game(ann, bob, cat, seed=2)
    assert reviews.review_claim().game_id == first.pk
    long_ago = timezone.now() - reviews.GIVE_UP - timedelta(minutes=1)
    GameReview.objects.filter(game=first).update(started=long_ago, lease_until=None)
    assert reviews.review_claim().game_id == second.pk
    assert GameReview.objects.get(game=first).status == GameReview.SKIPPED


def test_the_review_is_bounded_and_long_games_are_skipped(ann, bob, cat, settings):
    game = people_game(ann, bob, cat, seed=4)
    settings.BLAZE_REVIEW_MAX_DECISIONS = 5
    review = review_to_end()
    assert review.status == GameReview.SKIPPED and review.decisions == []
    # just enough for this game (its deal is the site's own draw: its length varies)
    settings.BLAZE_REVIEW_MAX_DECISIONS = (
        Move.objects.filter(game=game).exclude(payload__move="bet").count())
    GameReview.objects.filter(game=game).update(status=GameReview.PENDING, started=None)
    review = review_to_end(seconds=0.0)  # one move a slice: many slices, one review
    assert review.status == GameReview.DONE
    assert len(review.decisions) <= review.reviewed <= settings.BLAZE_REVIEW_MAX_DECISIONS
    assert len(json.dumps(review.decisions)) <= 200 * review.reviewed
    assert review.iterations == 100


def test_a_slice_of_the_review_costs_the_same_queries_for_short_and_long_games(
        ann, bob, cat, settings):
    counts = []
    for seed in (6, 7):
        game = people_game(ann, bob, cat, seed=seed)
        with CaptureQueriesContext(connection) as queries:
            assert reviews.review_work(seconds=600) == "done"  # one slice
        counts.append((game.seq, len(queries)))
    assert counts[0][0] != counts[1][0]
    assert counts[0][1] == counts[1][1], counts


def test_review_work_waits_on_the_bots_queue_behind_bot_turns():
    """Through the real broker: the task lands on the bots' queue at priority 9, which a
    worker reads after the queue's bot turns (priority 0)."""
    import redis
    from django.conf import settings as conf

    from blaze_site.celery import app as celery_app

    if not conf.CELERY_BROKER_URL.startswith("redis"):
        pytest.skip("needs the Redis broker")
    queue = f"{conf.CELERY_TASK_DEFAULT_QUEUE}.bots"
    low = f"{queue}\x06\x169"  # kombu's Redis list for priority 9 (0 is the queue itself)
    client = redis.Redis.from_url(conf.CELERY_BROKER_URL)
    client.delete(low)
    celery_app.conf.task_always_eager = False  # the eager_tasks fixture restores it
    try:
        reviews.review_queue()
        body = client.lpop(low)
        assert body is not None and b"games.tasks.review_work" in body
    finally:
        client.delete(low)
    assert conf.CELERY_BEAT_SCHEDULE["reviews-tick"]["options"] == {"priority": 9}


def test_a_review_left_waiting_for_a_day_is_dropped(ann, bob, cat):
    from datetime import timedelta

    from django.utils import timezone

    old = people_game(ann, bob, cat, seed=1)
    new = people_game(ann, bob, cat, seed=2)
    GameReview.objects.filter(game=old).update(
        queued=timezone.now() - reviews.STALE - timedelta(minutes=1))
    assert reviews.review_claim().game_id == new.pk
    assert GameReview.objects.get(game=old).status == GameReview.SKIPPED


def test_without_a_worker_no_review_runs_inside_the_last_moves_request(settings, ann, bob,
                                                                        cat, eager_tasks):
    """Tasks in-process (no Redis, no worker): a review would take seconds of the request
    that ends the game, so none is asked for unless the site says so."""
    settings.BLAZE_REVIEW_WITHOUT_WORKER = False
    game = services.game_create(creator=ann, players=3, bots=[])
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    game.status = Game.FINISHED
    assert reviews.review_request(game=game, seats=list(game.seats.select_related("user"))) \
        is None
    assert not GameReview.objects.filter(game=game).exists()
