"""Every task and periodic job, run twice, has the effect of running it once.

With late acknowledgement a task whose worker died runs again, and the watchdog may queue a
turn that is already queued: running twice must be harmless. Each case sets up work for the
task, runs it, checks it did something, runs it again and checks nothing more changed.
"""

from datetime import timedelta

import pytest
from django.contrib.sessions.models import Session
from django.core import mail
from django.utils import timezone

from accounts.models import User
from blaze_site.celery import app as celery_app
from clocks.models import SeatClock
from games import services
from games.engine import legal_moves
from games.models import Game, GameReview, Move, Seat
from games.reviews import review_request
from games.selectors import game_state
from lib.vapid import new_private_key
from notifications.models import Notification, PushSubscription
from ops.models import Heartbeat
from ratings.models import Rating, RatingChange
from social.models import Challenge
from tests.clocks.helpers import committed
from tests.conftest import make_user
from tests.notifications.push_receiver import Browser
from tests.ratings.factories import finished_game
from tests.tournaments.conftest import make_players, make_tournament, register_all
from tournaments.models import Tournament, TournamentRound

pytestmark = pytest.mark.django_db
CORR = {"kind": "correspondence", "days": 1}
LIVE = {"kind": "live", "minutes": 5}
OUR_APPS = ("games.", "clocks.", "notifications.", "ratings.", "tournaments.", "accounts.",
            "ops.", "social.")


@pytest.fixture(autouse=True)
def _setup(eager_tasks, settings):
    settings.BOT_PAUSE_SECONDS = 0
    settings.DIGEST_HOUR = 0
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.WEBPUSH_VAPID_PRIVATE_KEY = new_private_key()
    settings.WEBPUSH_ENDPOINT_HOSTS = ["127.0.0.1"]
    settings.BLAZE_REVIEW_ITERATIONS = settings.BLAZE_REVIEW_GAME_ITERATIONS = 100
    settings.BLAZE_REVIEW_MAX_DECISIONS = 2000


def _tasks() -> dict:
    celery_app.loader.import_default_modules()  # what a worker imports: every tasks.py
    return celery_app.tasks


def effects() -> dict:
    """What a task can change, as plain data."""
    return {
        "moves": list(Move.objects.order_by("game_id", "seq").values_list("game_id", "seq")),
        "games": list(Game.objects.order_by("pk").values_list("pk", "status", "seq")),
        "notes": sorted(Notification.objects.values_list("key", "emailed", "pushed")),
        "mail": [(m.to, m.subject) for m in mail.outbox],
        "ratings": sorted(Rating.objects.values_list("user_id", "mu", "sigma", "games")),
        "changes": RatingChange.objects.count(),
        "rounds": TournamentRound.objects.count(),
        "clocks": sorted(SeatClock.objects.values_list("game_id", "seat", "timeouts")),
        "guests": sorted(User.objects.filter(is_guest=True).values_list("username", flat=True)),
        "alive": sorted(Heartbeat.objects.values_list("part", flat=True)),
        "sessions": Session.objects.count(),
        "challenges": sorted(Challenge.objects.values_list("pk", "status")),
        "reviews": sorted(GameReview.objects.values_list("game_id", "status", "next_seq")),
    }


def _run_twice(task_name: str, *args) -> None:
    task = _tasks()[task_name]
    before = effects()
    with committed():  # what the task queues after commit runs too
        task.apply(args).get()
    once = effects()
    assert once != before, f"{task_name} had nothing to do: the case proves nothing"
    with committed():
        task.apply(args).get()
    assert effects() == once


def _waiting_on_a_bot(ann, time_control=CORR) -> Game:
    """A game whose bot turn was queued and lost (no on_commit hook runs in these tests)."""
    game = services.game_create(creator=ann, players=3, bots=["basic", "basic"],
                                time_control=time_control)
    game.refresh_from_db()
    seat = game.seats.get(user=ann).index
    while seat in game.waiting_on:  # ann plays until a bot is waited on
        move = dict(legal_moves(game_state(game), seat)[0])
        del move["seat"]
        services.move_play(game_id=game.pk, user=ann, seq=game.seq, move=move)
        game.refresh_from_db()
    return game


def _stalled(game) -> Game:
    """The game's last move long ago, as if its bot turn had been lost a while back."""
    long_ago = timezone.now() - timedelta(hours=1)
    Move.objects.filter(game=game).update(created=long_ago)
    Game.objects.filter(pk=game.pk).update(started=long_ago)
    Game.objects.filter(pk=game.pk, bot_turn_since__isnull=False).update(bot_turn_since=long_ago)
    return game


def _overdue(game) -> Game:
    past = timezone.now() - timedelta(days=2)
    SeatClock.objects.filter(game=game, running_since__isnull=False).update(
        running_since=past, deadline=past + timedelta(days=1))
    return game


def case_bot_move(ann):
    game = _waiting_on_a_bot(ann)
    return "games.tasks.bot_move", game.pk, game.seq


def case_bots_watchdog(ann):
    _stalled(_waiting_on_a_bot(ann))
    return ("games.tasks.bots_watchdog",)


def case_clocks_sweep(ann):
    bob, cat = make_user("bob"), make_user("cat")
    game = services.game_create(creator=ann, players=3, time_control=CORR)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    _overdue(game)
    return ("clocks.tasks.clocks_sweep",)


def case_deadline_check(ann):
    bob, cat = make_user("bob"), make_user("cat")
    game = services.game_create(creator=ann, players=3, time_control=LIVE)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    _overdue(game)
    return "clocks.tasks.deadline_check", game.pk, game.seq


def case_notification_send(ann):
    note = Notification.objects.create(user=ann, kind=Notification.GAME_OVER, key="t:1",
                                       text="Game 1 is over.")
    return "notifications.tasks.notification_send", note.pk


def case_notification_push(ann):
    note = Notification.objects.create(user=ann, kind=Notification.GAME_OVER, key="t:1",
                                       text="Game 1 is over.")
    # Nothing answers on port 9: the push fails, and is not tried again.
    keys = Browser().subscription("")["keys"]
    PushSubscription.objects.create(user=ann, endpoint="http://127.0.0.1:9/push", **keys)
    return "notifications.tasks.notification_push", note.pk


def case_send_digests(ann):
    ann.email_on_turn = "digest"
    ann.save(update_fields=["email_on_turn"])
    bob, cat = make_user("bob"), make_user("cat")
    game = services.game_create(creator=bob, players=3, time_control=CORR)
    for user in (ann, cat):
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    Game.objects.filter(pk=game.pk).update(
        waiting_on=[game.seats.get(user=ann).index])  # ann's turn
    return ("notifications.tasks.send_digests",)


def case_notices_release(ann):
    for n in range(2):  # held during quiet hours that have just ended
        Notification.objects.create(user=ann, kind=Notification.INVITATION, key=f"held:{n}",
                                    text="An invitation.",
                                    release_at=timezone.now() - timedelta(minutes=1))
    return ("notifications.tasks.notices_release",)


def case_rating_update(ann):
    game = finished_game([ann, make_user("bob"), make_user("cat")], seed=3)
    return "ratings.tasks.rating_update", game.pk


def case_tournaments_tick(ann):
    now = timezone.now()
    cup = make_tournament(ann, starts_at=now + timedelta(hours=2))
    register_all(cup, make_players("p", 4))
    Tournament.objects.filter(pk=cup.pk).update(  # now it is due
        registration_closes=now - timedelta(minutes=2), starts_at=now - timedelta(minutes=1))
    return ("tournaments.tasks.tournaments_tick",)


def _finished_round(ann):
    from games.tasks import bot_move
    from tournaments.services import tournament_start

    cup = make_tournament(ann, rounds=2)
    register_all(cup, make_players("p", 4))
    tournament_start(tournament_id=cup.pk, user=ann)
    game = Game.objects.get()
    Seat.objects.filter(game=game).update(bot_level="random")
    for _ in range(200):  # the random bots play it to its end
        game.refresh_from_db()
        if game.status != Game.PLAYING:
            break
        bot_move(game.pk, game.seq)
    assert game.status == Game.FINISHED
    return cup, game


def case_tournament_advance(ann):
    cup, _ = _finished_round(ann)
    return "tournaments.tasks.tournament_advance", cup.pk


def case_guests_remove(ann):
    User.objects.create(username="guest-idle", is_guest=True,
                        date_joined=timezone.now() - timedelta(days=3))
    return ("accounts.tasks.guests_remove",)


def case_sessions_clear(ann):
    from django.contrib.sessions.backends.db import SessionStore

    old = SessionStore()
    old["k"] = 1
    old.set_expiry(1)
    old.create()
    Session.objects.filter(pk=old.session_key).update(
        expire_date=timezone.now() - timedelta(days=1))
    return ("accounts.tasks.sessions_clear",)


def case_notifications_prune(ann):
    note = Notification.objects.create(user=ann, kind=Notification.DIGEST, key="old",
                                       text="old", read=True)
    Notification.objects.filter(pk=note.pk).update(created=timezone.now() - timedelta(days=90))
    return ("notifications.tasks.notifications_prune",)


def case_invitations_expire(ann):
    Challenge.objects.create(sender=ann, players=3, bots=["basic"],
                             expires=timezone.now() - timedelta(minutes=1))
    return ("social.tasks.invitations_expire",)


def case_review_work(ann):
    bob, cat = make_user("bob"), make_user("cat")
    game = finished_game([ann, bob, cat], seed=3)
    review_request(game=game, seats=list(game.seats.select_related("user")))
    return ("games.tasks.review_work",)


def case_heartbeat(ann):
    return ("ops.tasks.heartbeat",)


CASES = {fn.__name__.removeprefix("case_"): fn for fn in (
    case_bot_move, case_bots_watchdog, case_clocks_sweep, case_deadline_check,
    case_notification_send, case_notification_push, case_send_digests, case_notices_release,
    case_rating_update,
    case_tournaments_tick, case_tournament_advance, case_guests_remove, case_heartbeat,
    case_sessions_clear, case_invitations_expire, case_notifications_prune,
    case_review_work,
)}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_task_run_twice_has_one_effect(name, ann):
    task_name, *args = CASES[name](ann)
    assert task_name.rsplit(".", 1)[1] == name
    _run_twice(task_name, *args)


def test_every_task_and_periodic_job_has_a_run_twice_case():
    ours = {name.rsplit(".", 1)[1] for name in _tasks() if name.startswith(OUR_APPS)}
    from django.conf import settings

    jobs = {job["task"].rsplit(".", 1)[1] for job in settings.CELERY_BEAT_SCHEDULE.values()}
    assert jobs <= ours
    assert ours == set(CASES)
