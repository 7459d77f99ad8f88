"""Writes: every change to a tournament goes through one of these functions.

Rounds are claimed with a conditional update of `Tournament.current_round` (and a unique
round number as a second guard), so two workers can never pair the same round twice.
Mail and queued tasks happen only after the transaction commits.
"""

import logging
from datetime import datetime

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games import events
from games import services as game_services
from games.errors import Refused
from games.models import Game, Seat
from games.time_controls import clean_time_control

from . import selectors
from .models import Registration, Tournament, TournamentRound, TournamentTable
from .points import clean_points_scheme
from .seating import (
    elimination_advance,
    elimination_tables,
    swiss_tables,
)

log = logging.getLogger(__name__)

WITHDRAWN_BOT_LEVEL = "basic"


class TournamentError(Refused):
    """A refused request about a tournament (see Refused)."""


class TooFewPlayers(TournamentError):
    pass


# ---- creating and registering -----------------------------------------------------------


MIN_PLAYERS = 3  # a table of Blaze
MIN_PLAYERS_WITH_BOTS = 2  # and bots make the third (and fourth…) at each table


def tournament_create(
    *, organiser, name: str, format: str = Tournament.SWISS, table_size: int = 4,
    rounds: int = 3, advance_per_table: int = 2, time_control=None, rated: bool = False,
    registration_opens: datetime | None = None, registration_closes: datetime,
    starts_at: datetime | None = None, min_players: int | None = None,
    max_players: int = 40, allow_bots: bool = False, bot_level: str = "basic", points=None,
) -> Tournament:
    """`min_players`: by default 3, or 2 when bots fill short tables (two friends and
    bots make a table)."""
    fewest = MIN_PLAYERS_WITH_BOTS if allow_bots else MIN_PLAYERS
    if min_players is None:
        min_players = fewest
    name = (name or "").strip()
    if not name:
        raise TournamentError(_("A tournament needs a name."))
    if format not in (Tournament.SWISS, Tournament.ELIMINATION):
        raise TournamentError(_("The format is swiss or elimination."))
    if table_size not in (3, 4, 5):
        raise TournamentError(_("Tables seat 3, 4 or 5 players."))
    if format == Tournament.SWISS and not 1 <= rounds <= 20:
        raise TournamentError(_("A Swiss tournament has 1 to 20 rounds."))
    if format == Tournament.ELIMINATION and not 1 <= advance_per_table <= 4:
        raise TournamentError(_("1 to 4 players of each table can go on."))
    if not fewest <= min_players <= max_players:
        raise TournamentError(
            _("The minimum is at least 3 players (2 when bots fill short tables) and at "
              "most the maximum."))
    if max_players > 200:
        raise TournamentError(_("At most 200 players can register."))
    if bot_level not in Tournament.BOT_LEVELS:
        raise TournamentError(_("The bot level is random, basic or strong."))
    opens = registration_opens or timezone.now()
    if registration_closes <= opens:
        raise TournamentError(_("Registration must close after it opens."))
    if starts_at is not None and starts_at < registration_closes:
        raise TournamentError(_("The tournament cannot start before registration closes."))
    try:
        points = clean_points_scheme(points)
        time_control = clean_time_control(time_control)  # a ValueError, too
    except ValueError as e:
        raise TournamentError(str(e)) from None
    return Tournament.objects.create(
        organiser=organiser, name=name[:100], format=format, table_size=table_size,
        rounds=rounds, advance_per_table=advance_per_table, time_control=time_control,
        rated=rated, registration_opens=opens, registration_closes=registration_closes,
        starts_at=starts_at, min_players=min_players, max_players=max_players,
        allow_bots=allow_bots, bot_level=bot_level, points=points,
    )


def _locked(tournament_id: int) -> Tournament:
    """The tournament row, locked until the transaction ends. Call inside atomic()."""
    t = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if t is None:
        raise TournamentError(_("There is no such tournament."))
    return t


def tournament_register(*, tournament_id: int, user, now: datetime | None = None) -> Registration:
    now = now or timezone.now()
    if user.is_guest:
        raise TournamentError(_("Guests cannot play in tournaments: sign up to keep your games "
                                "and register."))
    with transaction.atomic():
        t = _locked(tournament_id)
        if t.status != Tournament.REGISTERING:
            raise TournamentError(_("Registration is over: the tournament has started or ended."))
        if now < t.registration_opens:
            raise TournamentError(_("Registration has not opened yet."))
        if now > t.registration_closes:
            raise TournamentError(_("Registration has closed."))
        reg = Registration.objects.filter(tournament=t, user=user).first()
        if reg is not None and reg.withdrawn is None:
            raise TournamentError(_("You are already registered."))
        if Registration.objects.filter(tournament=t, withdrawn__isnull=True).count() >= (
            t.max_players
        ):
            raise TournamentError(_("The tournament is full (%(n)d players).")
                                  % {"n": t.max_players})
        if reg is not None:  # registering again after withdrawing: back at the end
            reg.delete()
        return Registration.objects.create(tournament=t, user=user)


def tournament_withdraw(*, tournament_id: int, user) -> Registration:
    """Leave a tournament. During a round this resigns the player's unfinished game: the
    built-in bot plays the seat on and the player ranks last at that table (as anyone
    who leaves a game); they are not paired again."""
    with transaction.atomic():
        t = _locked(tournament_id)
        reg = Registration.objects.filter(tournament=t, user=user, withdrawn__isnull=True).first()
        if reg is None:
            raise TournamentError(_("You are not registered."))
        if t.status not in (Tournament.REGISTERING, Tournament.RUNNING):
            raise TournamentError(_("The tournament is over."))
        if t.status == Tournament.REGISTERING:
            reg.delete()
            return reg
        reg.withdrawn = timezone.now()
        reg.save(update_fields=["withdrawn"])
        seats = Seat.objects.filter(
            user=user, game__tournament_table__round__tournament=t,
            game__status__in=[Game.WAITING, Game.PLAYING],
        ).select_related("game")
        for seat in seats:
            if seat.game.status == Game.PLAYING and not seat.abandoned:
                try:
                    game_services.game_resign(game_id=seat.game_id, user=user)
                except game_services.GameError:
                    pass  # the game ended meanwhile: nothing left to resign
            else:
                _seat_to_bot(seat, WITHDRAWN_BOT_LEVEL)
    return reg


def _seat_to_bot(seat: Seat, level: str) -> None:
    """Let a bot play this seat from now on, and wake it if the game waits on it."""
    Seat.objects.filter(pk=seat.pk).update(bot_level=level)
    game_id = seat.game_id
    transaction.on_commit(lambda: _wake_bots(game_id))


def _wake_bots(game_id: int) -> None:
    seq = Game.objects.filter(pk=game_id).values_list("seq", flat=True).first()
    if seq is not None:
        game_services.bot_turn_queue(game_id=game_id, seq=seq)


# ---- starting, pairing, advancing -------------------------------------------------------


def tournament_start(*, tournament_id: int, user=None) -> Tournament:
    """Close registration and pair round 1. `user`, when given, must be the organiser
    (the beat task starts due tournaments without one)."""
    with transaction.atomic():
        t = _locked(tournament_id)
        if user is not None and t.organiser_id != user.pk:
            raise TournamentError(_("Only the organiser can start the tournament."))
        if t.status != Tournament.REGISTERING:
            raise TournamentError(_("The tournament has already started or ended."))
        players = selectors.tournament_active_user_ids(t)
        if len(players) < t.min_players:
            raise TooFewPlayers(
                _("Too few players to start: %(registered)d registered, at least %(needed)d "
                  "needed.") % {"registered": len(players), "needed": t.min_players}
            )
        claimed = Tournament.objects.filter(
            pk=t.pk, status=Tournament.REGISTERING, current_round=0
        ).update(status=Tournament.RUNNING, current_round=1)
        if not claimed:  # pragma: no cover - the row lock makes this the only writer
            raise TournamentError(_("The tournament has already started."))
        t.refresh_from_db()
        tournament_round_pair(tournament=t)
    return t


def tournament_cancel(*, tournament_id: int, user=None) -> Tournament:
    with transaction.atomic():
        t = _locked(tournament_id)
        if user is not None and t.organiser_id != user.pk:
            raise TournamentError(_("Only the organiser can cancel the tournament."))
        if t.status != Tournament.REGISTERING:
            raise TournamentError(_("Only a tournament that has not started can be cancelled."))
        t.status = Tournament.CANCELLED
        t.finished = timezone.now()
        t.save(update_fields=["status", "finished"])
    return t


def _next_field(t: Tournament) -> list:
    """The players of round `t.current_round`, best first, by the format's rules."""
    active = set(selectors.tournament_active_user_ids(t))
    standing = [r.user.pk for r in selectors.tournament_standings(t)]
    if t.format == Tournament.SWISS or t.current_round == 1:
        return [p for p in standing if p in active]
    # Elimination: the top k humans of every table of the previous round go on.
    previous = selectors.tournament_rounds(t)[-1]
    sizes = [len(tb.seat_list) for tb in previous.tables]
    k = elimination_advance(sizes, t.advance_per_table)
    going_on = set()
    for table in previous.tables:
        result = selectors.table_result(table.game, table.seat_list)
        if result is None:
            continue  # an aborted table: nobody goes on from it
        # Players who left their game (resigned, timed out) never go on.
        humans = [p for p in result.players if p in active and p not in result.left]
        going_on.update(humans[:k])
    return [p for p in standing if p in going_on]


def tournament_round_pair(*, tournament: Tournament) -> TournamentRound | None:
    """Seat round `tournament.current_round` and create its games, started.

    Precondition: the caller claimed the round (holding the conditional update in the
    same transaction). Returns None, finishing the tournament, when too few are left.
    """
    t = tournament
    field = _next_field(t)
    bots = 0
    if t.allow_bots and len(field) % t.table_size:
        bots = t.table_size - len(field) % t.table_size
    if len(field) + bots < 3:
        _finish(t)
        return None
    placeholders = [("bot", i) for i in range(bots)]
    ranked = field + placeholders
    if t.format == Tournament.SWISS:
        # pairs who met already, and those an app above asks to keep apart (blocks):
        # both avoided where the standings allow
        avoid = selectors.tournament_met_pairs(t) | events.apart_pairs(field)
        tables = swiss_tables(ranked, avoid, t.table_size)
    else:
        tables = elimination_tables(ranked, t.table_size)
    rnd = TournamentRound.objects.create(tournament=t, number=t.current_round)
    users = {u.pk: u for u in type(t.organiser).objects.filter(pk__in=field)}
    for number, table in enumerate(tables, start=1):
        humans = [users[p] for p in table if not isinstance(p, tuple)]
        n_bots = len(table) - len(humans)
        game = _table_game_create(t, humans, n_bots)
        TournamentTable.objects.create(round=rnd, game=game, number=number)
        for user in humans:
            _tell_table(t, rnd.number, number, game, user)
    return rnd


def _table_game_create(t: Tournament, humans: list, n_bots: int) -> Game:
    """One started game with these users seated (the game shuffles the seats) and
    `n_bots` anonymous bots. Registered bot users' seats are driven by the bot task."""
    try:
        game = game_services.game_create(
            creator=humans[0], players=len(humans) + n_bots, time_control=t.time_control,
            rated=t.rated, private=False, bots=[t.bot_level] * n_bots,
        )
        for user in humans[1:]:
            # the pairing kept blocked players apart where it could; where it could not,
            # they play (tables are the tournament's, not a player's)
            game = game_services.game_join(game_id=game.pk, user=user, vetoes=False)
    except game_services.GameError as e:
        raise TournamentError(_("A table could not be set up: %(why)s") % {"why": e.message}
                              ) from None
    Seat.objects.filter(game=game, user__is_bot=True).update(bot_level=t.bot_level)
    game.refresh_from_db()
    return game


def _tell_table(t: Tournament, round_number: int, table: int, game: Game, user) -> None:
    """Tell a player where they play this round: one notice (in the site and by mail,
    as the player chose) through the notification system, once per table."""
    page = settings.SITE_URL.rstrip("/") + reverse("tournament_detail", args=[t.pk])
    events.player_notice.send(
        user=user, game=game, kind="tournament", key=f"tournament_table:{game.pk}:{user.pk}",
        subject=gettext_lazy("%(name)s: your table for round %(number)d is ready"),
        text=gettext_lazy("Round %(number)d of %(name)s has started: you play at table "
                          "%(table)s. Good luck!\nTournament page: %(page)s"),
        params={"name": t.name, "number": round_number, "table": table, "page": page},
    )


def _finish(t: Tournament) -> None:
    Tournament.objects.filter(pk=t.pk, status=Tournament.RUNNING).update(
        status=Tournament.FINISHED, finished=timezone.now()
    )
    t.refresh_from_db()


def tournament_advance(*, tournament_id: int) -> str:
    """Pair the next round, or finish, once every table of the current round is done.

    Idempotent: returns what it did ("paired", "finished") or why not ("not running",
    "waiting"). Safe to call from several workers at once.
    """
    t = Tournament.objects.filter(pk=tournament_id).first()
    if t is None or t.status != Tournament.RUNNING:
        return "not running"
    k = t.current_round
    rounds = selectors.tournament_rounds(t)
    current = next((r for r in rounds if r.round.number == k), None)
    if current is None:
        return "no such round"  # never paired: nothing to advance from
    if not current.finished:
        return "waiting"
    final = (
        (t.format == Tournament.SWISS and k >= t.rounds)
        or (t.format == Tournament.ELIMINATION and len(current.tables) <= 1)
    )
    with transaction.atomic():
        if final:
            claimed = _round_claim(
                tournament_id=t.pk, seen_round=k,
                status=Tournament.FINISHED, finished=timezone.now(),
            )
            # Nothing got updated: another process got there first.
            return "finished" if claimed else "claimed elsewhere"
        if not _round_claim(tournament_id=t.pk, seen_round=k, current_round=k + 1):
            return "claimed elsewhere"
        t.refresh_from_db()
        rnd = tournament_round_pair(tournament=t)
    return "paired" if rnd is not None else "finished"


def _round_claim(*, tournament_id: int, seen_round: int, **changes) -> bool:
    """Move a running tournament on from `seen_round`; False when another worker did."""
    return bool(
        Tournament.objects.filter(
            pk=tournament_id, status=Tournament.RUNNING, current_round=seen_round
        ).update(**changes)
    )


def tournament_game_finished(*, game_id: int) -> None:
    """The hook for games: call after a game finishes (or is aborted). Cheap when the game
    is not a tournament game; otherwise queues the advance task after commit."""
    tid = (
        TournamentTable.objects.filter(game_id=game_id)
        .values_list("round__tournament_id", flat=True)
        .first()
    )
    if tid is not None:
        from .tasks import tournament_advance as advance_task

        transaction.on_commit(lambda: advance_task.delay(tid))


def tournaments_tick(*, now: datetime | None = None) -> dict:
    """Start due tournaments (cancelling those still short of players once due) and advance
    running ones whose round is done. Idempotent; the beat runs it every 30 s."""
    now = now or timezone.now()
    done = {"started": [], "cancelled": [], "advanced": []}
    for tid in selectors.tournaments_due(now):
        try:
            tournament_start(tournament_id=tid)
            done["started"].append(tid)
        except TooFewPlayers as e:
            log.info("tournament %s not started: %s", tid, e.message)
            try:
                tournament_cancel(tournament_id=tid)
                done["cancelled"].append(tid)
            except TournamentError:
                pass  # started or cancelled meanwhile
        except TournamentError:
            log.exception("tournament %s could not start", tid)
    for tid in selectors.tournaments_to_advance():
        if tournament_advance(tournament_id=tid) in ("paired", "finished"):
            done["advanced"].append(tid)
    return done
