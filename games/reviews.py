"""The strong bot's review of a finished game between people (docs/bots.md, "Review").

A game that ends with at least one human seat gets a `GameReview` row in the move's
transaction (`review_request`). A task on the bots' queue at low priority
(`games.tasks.review_work`, also beat's safety net) claims one review at a time within
the site's limits and works on it for one slice: it replays the log and, at each play
decision of a human seat, asks the strong bot (`games.bots.review_move`) from that
seat's view only — the same `engine.view(state, seat)` the bots get in play — what it
would play and how it rates that and the move played. Nothing of it exists while the
game is played; the replay page shows it (`review_for`) to those who may see it.
"""


import time
from datetime import timedelta

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from lib import chance

from . import bots
from .cards_text import card_name, cards_list
from .engine import view
from .models import Game, GameReview, Move, Seat
from .selectors import initial_state

# A slice's lease: a worker that died mid-slice leaves the review to the next claim.
LEASE_MARGIN = timedelta(seconds=60)
# A review unfinished this long after it began is given up (its slices keep failing).
GIVE_UP = timedelta(hours=1)
# A review still waiting this long after its game ended is not made (a backlog stays bounded).
STALE = timedelta(days=1)
# One key for the claims' advisory lock (PostgreSQL): claims count and take in turn.
CLAIM_LOCK = 0x7265_7669  # "revi"
# Low priority on the bots' queue (Redis: priority 0, bot turns, is served first).
TASK_PRIORITY = 9


def human_seats(seats) -> list[int]:
    """The seats people sat in (house bots and bot seats are not people)."""
    return [s.index for s in seats
            if s.user_id is not None and not s.user.is_bot]


def review_request(*, game: Game, seats) -> GameReview | None:
    """Ask for the review of a game that just finished (inside the finishing move's
    transaction): only games played by at least one person, never imported records.
    Queues the work after commit."""
    if game.imported or game.status != Game.FINISHED or not human_seats(seats):
        return None
    if settings.BLAZE_REVIEW_RUNNING == 0 or settings.BLAZE_REVIEW_PER_HOUR == 0:
        return None  # reviews are off
    from .tasks import review_work  # the task module imports this one

    if review_work.app.conf.task_always_eager and not settings.BLAZE_REVIEW_WITHOUT_WORKER:
        # No worker (tasks run in-process): the whole review would run inside the request
        # of the game's last move, seconds of it.
        return None
    review, _made = GameReview.objects.get_or_create(game=game)
    transaction.on_commit(review_queue, robust=True)
    return review


def review_queue(countdown: float = 0.0) -> None:
    from .tasks import review_work  # the task module imports this one

    review_work.apply_async(countdown=countdown, priority=TASK_PRIORITY)


def review_claim() -> GameReview | None:
    """Take one review for a slice: an unfinished one nobody holds first, else a pending
    one if fewer than BLAZE_REVIEW_RUNNING are under way and fewer than
    BLAZE_REVIEW_PER_HOUR began in the last hour. None when there is nothing to do or
    the limits say wait (the beat tick asks again)."""
    now = timezone.now()
    lease = now + timedelta(seconds=settings.BLAZE_REVIEW_SLICE_SECONDS) + LEASE_MARGIN
    with transaction.atomic():
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(%s)", [CLAIM_LOCK])
        running = GameReview.objects.filter(status=GameReview.RUNNING)
        # A review still unfinished long after it began fails every slice (a bug, a game
        # the search cannot take): given up, so it never holds the queue.
        running.filter(started__lt=now - GIVE_UP).filter(
            Q(lease_until__isnull=True) | Q(lease_until__lt=now)).update(
            status=GameReview.SKIPPED, finished=now, lease_until=None)
        # More games than the hourly limit for long: the oldest waiting ones are dropped.
        GameReview.objects.filter(status=GameReview.PENDING, queued__lt=now - STALE).update(
            status=GameReview.SKIPPED, finished=now)
        held = (running.filter(Q(lease_until__isnull=True) | Q(lease_until__lt=now))
                .order_by("queued").values_list("pk", flat=True).first())
        if held is not None:
            GameReview.objects.filter(pk=held).update(lease_until=lease)
            return GameReview.objects.get(pk=held)
        if running.count() >= settings.BLAZE_REVIEW_RUNNING:
            return None
        hour_ago = now - timedelta(hours=1)
        if (GameReview.objects.filter(started__gte=hour_ago).count()
                >= settings.BLAZE_REVIEW_PER_HOUR):
            return None
        pending = (GameReview.objects.filter(status=GameReview.PENDING)
                   .order_by("queued").values_list("pk", flat=True).first())
        if pending is None:
            return None
        # A conditional update: nobody else took it (the lock makes sure, SQLite aside).
        taken = GameReview.objects.filter(pk=pending, status=GameReview.PENDING).update(
            status=GameReview.RUNNING, started=now, lease_until=lease)
        return GameReview.objects.get(pk=pending) if taken else None


def _decisions(game: Game, seats: list[Seat]) -> tuple[list, set[int]]:
    """The log's payloads in order, and the positions (seqs) among them of the play
    decisions people made themselves (not bets, not a bot's moves for a player who had
    left)."""
    humans = set(human_seats(seats))
    left_at = {s.index: s.abandoned_at for s in seats if s.abandoned and s.abandoned_at}
    moves = list(Move.objects.filter(game=game).order_by("seq")
                 .values_list("seat", "payload", "created"))
    reviewed = set()
    for seq, (seat, payload, created) in enumerate(moves):
        if seat not in humans or payload["move"] == "bet":
            continue
        if seat in left_at and created >= left_at[seat]:
            continue
        reviewed.add(seq)
    return [payload for _seat, payload, _created in moves], reviewed


def _iterations(decisions: int) -> int:
    """Search iterations per decision: long games get fewer (at least 100)."""
    if decisions == 0:
        return settings.BLAZE_REVIEW_ITERATIONS
    return max(100, min(settings.BLAZE_REVIEW_ITERATIONS,
                        settings.BLAZE_REVIEW_GAME_ITERATIONS // decisions))


def _stored(move: dict, state) -> dict:
    """A move as the review keeps it: without its seat; a rejection also names the table
    cards it rejects ("over"), public at that point, for the words on the page."""
    kept = {k: v for k, v in move.items() if k != "seat"}
    if move["move"] == "reject":
        kept["over"] = [state.table_cards[i] for i, _card in move["pairs"]]
    return kept


def review_work(*, seconds: float | None = None, rng=None) -> str:
    """Claim one review and work on it for about `seconds` (BLAZE_REVIEW_SLICE_SECONDS);
    save what was done and say "done", "more" (queued again), "skipped" or "idle"."""
    review = review_claim()
    if review is None:
        return "idle"
    if seconds is None:
        seconds = settings.BLAZE_REVIEW_SLICE_SECONDS
    rng = rng or chance.new_rng()
    lease = review.lease_until
    game = review.game
    seats = list(Seat.objects.filter(game=game).select_related("user"))
    payloads, reviewed = _decisions(game, seats)
    mine = GameReview.objects.filter(pk=review.pk, lease_until=lease)  # still ours
    if len(reviewed) > settings.BLAZE_REVIEW_MAX_DECISIONS:
        mine.update(status=GameReview.SKIPPED, finished=timezone.now(), lease_until=None)
        return "skipped"
    iterations = review.iterations or _iterations(len(reviewed))
    state = initial_state(game.deal)
    for payload in payloads[:review.next_seq]:
        state.apply(payload)
    found = list(review.decisions)
    looked = review.reviewed
    started, cpu = time.perf_counter(), time.process_time()
    seq = review.next_seq
    while seq < len(payloads):
        if time.perf_counter() - started >= seconds and seq > review.next_seq:
            break  # a slice reviews at least one move, so every slice makes progress
        payload = payloads[seq]
        if seq in reviewed:
            seat = payload["seat"]
            best, chances = bots.review_move(view(state, seat), seat, payload, rng=rng,
                                             iterations=iterations)
            looked += 1
            played_key, best_key = bots.move_key(payload), bots.move_key(best)
            if chances and played_key != best_key:
                found.append({
                    "seq": seq, "seat": seat,
                    "played": _stored(payload, state), "best": _stored(best, state),
                    "p_played": round(chances.get(played_key, 0.0), 3),
                    "p_best": round(chances[best_key], 3),
                })
        state.apply(payload)
        seq += 1
    done = seq >= len(payloads)
    fields = {
        "next_seq": seq, "iterations": iterations, "reviewed": looked, "decisions": found,
        "cpu_seconds": review.cpu_seconds + time.process_time() - cpu, "lease_until": None,
    }
    if done:
        fields.update(status=GameReview.DONE, finished=timezone.now())
    if not mine.update(**fields):
        return "idle"  # the lease ran out and another worker took over: its work counts
    if done:
        return "done"
    from .tasks import review_work as task

    if not task.app.conf.task_always_eager:  # in-process, the task itself works on
        review_queue(countdown=1.0)  # a trickle: the next slice after others' bot turns
    return "more"


# ---- reading -------------------------------------------------------------------------


def move_words(move: dict) -> str:
    """A move of the review in the reader's language, without its player."""
    kind = move["move"]
    if kind == "challenge":
        return _("challenge with %(cards)s") % {"cards": cards_list(move["cards"])}
    if kind == "add":
        return _("add %(cards)s") % {"cards": cards_list(move["cards"])}
    if kind == "reject":
        return _("reject %(pairs)s") % {"pairs": "; ".join(
            _("%(card)s with %(with)s") % {"card": card_name(over), "with": card_name(r)}
            for over, (_i, r) in zip(move["over"], move["pairs"]))}
    if kind == "pass":
        return _("pass")
    if kind == "done":
        return _("stop adding")
    return kind


def review_seats(game: Game, user) -> list[int]:
    """Whose decisions `user` may read in the review of a finished game they may watch:
    their own seats; every seat once the game is public."""
    if game.status != Game.FINISHED:
        return []
    seats = list(Seat.objects.filter(game=game).values_list("index", "user_id"))
    if not game.private:
        return [i for i, _u in seats]
    if user is None or not user.is_authenticated:
        return []
    return [i for i, u in seats if u == user.pk]


def review_for(game: Game, user, names: list[str]) -> dict | None:
    """The review as `user` may read it (the caller checked games.visibility.can_watch):
    None while there is none to show; else its status and the decisions of the seats
    they may read where the bot's choice is at least BLAZE_REVIEW_MARGIN better."""
    if game.status != Game.FINISHED or game.imported:
        return None
    review = GameReview.objects.filter(game=game).first()
    if review is None:
        return None
    seats = set(review_seats(game, user))
    if not seats:
        return None
    margin = settings.BLAZE_REVIEW_MARGIN
    if review.status != GameReview.DONE:
        return {"status": review.status, "decisions": [], "margin": round(100 * margin)}
    shown = [{
        "seq": d["seq"], "ply": d["seq"] + 1, "seat": d["seat"], "name": names[d["seat"]],
        "played": move_words(d["played"]), "best": move_words(d["best"]),
        "p_played": round(100 * d["p_played"]), "p_best": round(100 * d["p_best"]),
    } for d in review.decisions
        if d["seat"] in seats and d["p_best"] - d["p_played"] >= margin]
    return {"status": review.status, "decisions": shown, "margin": round(100 * margin)}


def review_payload(game: Game, user) -> dict | None:
    """The API's review (GET /api/v1/games/{id}/review) as `user` may read it (the caller
    checked games.visibility.can_watch): None until it is made, or when it holds no seat
    of theirs; else every reviewed decision of those seats where the bot would have
    played otherwise, moves as RECORD.md objects."""
    if game.status != Game.FINISHED or game.imported:
        return None
    review = GameReview.objects.filter(game=game, status=GameReview.DONE).first()
    if review is None:
        return None
    seats = set(review_seats(game, user))
    if not seats:
        return None

    def record_move(move: dict, seat: int) -> dict:
        return {"seat": seat, **{k: v for k, v in move.items() if k != "over"}}

    return {
        "id": game.pk,
        "iterations": review.iterations,
        "reviewed": review.reviewed,
        "margin": settings.BLAZE_REVIEW_MARGIN,
        "decisions": [{
            "seq": d["seq"], "seat": d["seat"],
            "played": record_move(d["played"], d["seat"]),
            "best": record_move(d["best"], d["seat"]),
            "p_played": d["p_played"], "p_best": d["p_best"],
        } for d in review.decisions if d["seat"] in seats],
    }
