"""Writes: every change to a game goes through one of these functions.

Each locks the game row, checks, applies through the engine, appends to the move
log, and only after the transaction commits broadcasts and queues bot work.
"""

import logging
import secrets

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import get_language, gettext_lazy
from django.utils.translation import gettext as _

from lib import rows
from lib.ratelimits import rate_limit_user
from lib.text import text_unstorable

from . import engine, events
from . import time_controls as tcs
from .engine import RecordError, deal_game, import_record
from .engine.facts import apply_told
from .errors import (  # noqa: F401 (callers catch them as services.X)
    BadRequest,
    Forbidden,
    GameError,
    GameNotFound,
    IllegalMove,
    NotAPlayer,
    QuotaExceeded,
    Refused,
    StaleSeq,
)
from .live import broadcast, watchers
from .models import Game, Move, Seat
from .reviews import review_request
from .selectors import (
    GameAndSeats,
    game_and_seats,
    game_state_to_change,
    initial_state,
    state_cache_put_on_commit,
)
from .visibility import can_watch, invite_matches
from .words import say, status_word

log = logging.getLogger(__name__)
_system = secrets.SystemRandom()


# ---- helpers ---------------------------------------------------------------------------


def _locked_game(game_id: int) -> Game:
    """The game row, locked until the transaction ends. Call inside transaction.atomic()."""
    game = Game.objects.select_for_update().filter(pk=game_id).first()
    if game is None:
        raise GameNotFound()
    return game


def _locked_game_and_seats(game_id: int, *, opens: bool = False) -> GameAndSeats:
    """The game row, locked, and its seats with their users, in one statement (the move
    path: see lib.rows). Call inside transaction.atomic(); `opens`: as its first statement,
    the block the outermost (rows.select)."""
    found = game_and_seats(game_id, lock=True, opens=opens)
    if found is None:
        raise GameNotFound()
    return found


def _outsider_safe(game: Game, user, refusal: GameError, invite: str = "") -> GameError:
    """The refusal to raise: to whoever may not watch a private game (games.visibility)
    every refusal about it is "no such game", for writes as for reads, so a POST tells
    no more than a GET (that it exists, or has started)."""
    if game.private and not can_watch(game, user, invite=invite):
        return GameNotFound()
    return refusal


def time_control_cleaned(time_control) -> dict:
    """A table's time control as every door takes it (a new game, a challenge), or
    BadRequest saying what is wrong with it."""
    if time_control is not None and (not isinstance(time_control, dict)
                                     or time_control.get("kind") not in tcs.KINDS):
        raise BadRequest(
            _('time_control must be an object with "kind": "live" or "correspondence"'))
    try:
        return tcs.clean_time_control(time_control)
    except tcs.TimeControlError as e:
        raise BadRequest(_("time_control: %(why)s") % {"why": say(e.args[0])}) from None


def _clean_bots(bots, players: int) -> list[str]:
    bots = list(bots or [])
    for level in bots:
        if level not in Seat.BOT_LEVELS:
            raise BadRequest(_("unknown bot level %(level)r: use one of random, basic, strong")
                             % {"level": level})
    if len(bots) > players - 1:
        raise BadRequest(_("at most %(bots)d bots fit at a table of %(players)d")
                         % {"bots": players - 1, "players": players})
    return bots


def _after_change(game_id: int, seq: int, *, queue_bots: bool = True) -> None:
    """Tell the game's listeners that it changed, then queue a bot turn if one is due.

    Runs after commit, for changes other than moves (rare): the views are read from the
    database once here, never per socket (a player who just left their seat is no longer
    in the views: their sockets get the spectators' one).
    """
    views = broadcast.views_load(game_id)
    if views is not None:
        broadcast.views_send(views)
    if queue_bots:
        bot_turn_queue(game_id=game_id, seq=seq)


def bot_pause_seconds(time_control: dict) -> float:
    """How long a bot waits before its move: a natural pause in live games only."""
    if isinstance(time_control, dict) and time_control.get("kind") == tcs.LIVE:
        return float(settings.BOT_PAUSE_SECONDS)
    return 0.0


def bot_turn_queue(*, game_id: int, seq: int) -> None:
    """Queue the bot task when the game waits on a bot seat (cheap check first)."""
    game = (Game.objects.filter(pk=game_id)
            .only("status", "waiting_on", "seq", "time_control").first())
    if game is None or game.status != Game.PLAYING or game.seq != seq:
        return
    bot_seats = set(
        Seat.objects.filter(game_id=game_id, bot_level__isnull=False)
        .values_list("index", flat=True)
    )
    _bot_turn_queue_due(game, bot_seats)


def _bot_turn_queue_due(game: Game, bot_seats: set[int]) -> None:
    if game.status == Game.PLAYING and bot_seats & set(game.waiting_on):
        from .tasks import bot_move  # the task module imports this one

        bot_move.apply_async((game.pk, game.seq),
                             countdown=bot_pause_seconds(game.time_control))


def game_abort_stalled(*, game_id: int) -> bool:
    """Abort a game that circled past BLAZE_MAX_GAME_MOVES moves; true if it did.

    The rules never end such a game (RULES.md §9); clocks end it when people play,
    this ends it when only bots are left to move.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.PLAYING or game.seq < settings.BLAZE_MAX_GAME_MOVES:
            return False
        game.status = Game.ABORTED
        game.finished = timezone.now()
        game.waiting_on = []
        game.bot_turn_since = None
        game.save(update_fields=["status", "finished", "waiting_on", "bot_turn_since"])
        seq = game.seq
        transaction.on_commit(lambda: _after_change(game_id, seq, queue_bots=False))
        events.game_ended.send(game=game, reason=events.ABORTED)
    log.warning("game %s aborted after %s moves: it circled", game_id, seq)
    return True


# ---- creating and filling tables --------------------------------------------------------


def _quotas_check(user, *, new_table: bool, bots) -> None:
    """Refuse a user's request past their quotas (settings.BLAZE_MAX_*). Call inside the
    transaction: the user's row lock makes two simultaneous requests count one by one."""
    from django.conf import settings

    get_user_model().objects.select_for_update().filter(pk=user.pk).first()
    if new_table:
        waiting = Game.objects.filter(created_by=user, status=Game.WAITING).count()
        if waiting >= settings.BLAZE_MAX_WAITING_TABLES:
            raise QuotaExceeded(
                f"you already have {waiting} tables waiting for players: start or leave "
                "one before you open another")
    strong = sum(1 for level in bots if level == "strong")
    if strong:
        seated = Seat.objects.filter(
            game__created_by=user, game__status__in=[Game.WAITING, Game.PLAYING],
            bot_level="strong",
        ).count()
        if seated + strong > settings.BLAZE_MAX_STRONG_BOT_SEATS:
            raise QuotaExceeded(
                f"at most {settings.BLAZE_MAX_STRONG_BOT_SEATS} strong bots may play at "
                "your tables at once: finish a game with them first")


def game_create(
    *, creator, players: int, time_control=None, rated: bool = False, private: bool = False,
    bots=None, quotas: bool = True,
) -> Game:
    """A new table with the creator in seat 0 and the bots after; starts when full.

    `quotas`: hold the request to the person's rate of new tables and quotas, whichever
    entry it came through (pages, API); only the site's own tables (tournaments) pass
    False. Raises RateLimited or QuotaExceeded past them."""
    if type(players) is not int or not 3 <= players <= 5:
        raise BadRequest(_("players must be 3, 4 or 5"))
    time_control = time_control_cleaned(time_control)
    # Bots may sit at rated tables: they have ratings too (ratings/), so people can
    # measure themselves against them.
    bots = _clean_bots(bots, players)
    if rated and creator.is_guest:
        raise BadRequest(_("guests play unrated games: sign up to play rated ones"))
    if quotas:
        rate_limit_user(creator, "game_create")
    with transaction.atomic():
        if quotas:
            _quotas_check(creator, new_table=1 + len(bots) < players, bots=bots)
        game = Game.objects.create(
            players=players, time_control=time_control, rated=bool(rated),
            private=bool(private), invite_code=secrets.token_urlsafe(12) if private else "",
            created_by=creator,
        )
        Seat.objects.create(game=game, index=0, user=creator)
        for i, level in enumerate(bots, start=1):
            Seat.objects.create(game=game, index=i, bot_level=level)
        if 1 + len(bots) == players:
            _start(game)
        transaction.on_commit(lambda: _after_change(game.pk, game.seq))
    return game


def game_join(*, game_id: int, user, invite_code: str = "", vetoes: bool = True) -> Game:
    """Take the next free seat; the game starts when every seat is taken.

    `vetoes`: the apps above may keep the user away (events.join_refusal); False when the
    site itself seats the user (a tournament's pairing has weighed them already)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.seats.filter(user=user).exists():
            return game  # joining twice changes nothing
        if game.private and not invite_matches(game, invite_code or ""):
            raise _outsider_safe(game, user, Forbidden(
                _("this table is private: you need its invite link")))
        if game.status != Game.WAITING:
            raise Forbidden(_("this game has already started"))
        if game.rated and user.is_guest:
            raise Forbidden(_("guests play unrated games: sign up to join a rated table"))
        refusal = events.join_refusal(game, user) if vetoes else None
        if refusal:
            raise Forbidden(refusal)
        _seat_next(game, user=user)
    return game


QUICK_PLAY_CANDIDATES = 20  # open tables looked at before a new one is opened


def game_seat_with_people(*, user, players: int) -> Game:
    """A seat at the oldest open public table of this size (one the user already sits at
    counts), or a new table of that size waiting for people."""
    if type(players) is not int or not 3 <= players <= 5:
        raise BadRequest("players must be 3, 4 or 5")
    mine = Game.objects.filter(
        status=Game.WAITING, players=players, private=False, seats__user=user).first()
    if mine is not None:
        return mine
    with transaction.atomic():
        candidates = Game.objects.select_for_update(skip_locked=True).filter(
            status=Game.WAITING, players=players, private=False, imported=False,
        )
        if user.is_guest:
            candidates = candidates.filter(rated=False)
        # the oldest table no app above keeps the user from (a player there blocked them)
        for game in candidates.order_by("created")[:QUICK_PLAY_CANDIDATES]:
            if events.join_refusal(game, user) is None:
                _seat_next(game, user=user)
                return game
    return game_create(creator=user, players=players)


def game_again(*, game_id: int, user) -> Game:
    """"Play again": the table's next game with the same settings and the same bots, which
    start at once; the other people of the table are invited (their seats wait for them).
    The first player to ask creates it; the others join it."""
    with transaction.atomic():
        old = _locked_game(game_id)
        if not old.seats.filter(user=user).exists():
            raise _outsider_safe(old, user, NotAPlayer())
        if old.status not in (Game.FINISHED, Game.ABORTED) or old.imported:
            raise Forbidden(_("you can play again once this game is over"))
        rematch = Game.objects.filter(rematch_of=old).first()
        if rematch is not None:
            if rematch.status == Game.WAITING and not rematch.seats.filter(user=user).exists():
                rematch = _locked_game(rematch.pk)
                refusal = events.join_refusal(rematch, user)
                if refusal:
                    raise Forbidden(refusal)
                _seat_next(rematch, user=user)
            return rematch
        bots = list(old.seats.filter(bot_level__isnull=False, user__isnull=True)
                    .values_list("bot_level", flat=True))
        # a new table like any other: the same rate and quotas (one path for every limit)
        rate_limit_user(user, "game_create")
        _quotas_check(user, new_table=1 + len(bots) < old.players, bots=bots)
        rated = old.rated and not user.is_guest
        game = Game.objects.create(
            players=old.players, time_control=old.time_control, rated=rated,
            private=old.private, invite_code=old.invite_code, created_by=user, rematch_of=old,
        )
        Seat.objects.create(game=game, index=0, user=user)
        for i, level in enumerate(bots, start=1):
            Seat.objects.create(game=game, index=i, bot_level=level)
        if 1 + len(bots) == game.players:
            _start(game)
        transaction.on_commit(lambda: _after_change(game.pk, game.seq))
        # the old table's page learns of the new game (its "Join the next game" link) and
        # the other people of the table are told, in the site and by mail as they chose
        transaction.on_commit(lambda: _after_change(old.pk, old.seq, queue_bots=False))
        _rematch_offer(old, game, user)
    return game


def _rematch_offer(old: Game, game: Game, by) -> None:
    page = settings.SITE_URL.rstrip("/") + reverse("game_table", args=[game.pk])
    others = old.seats.filter(user__isnull=False, user__is_bot=False).exclude(user=by)
    for seat in others.select_related("user"):
        events.player_notice.send(
            user=seat.user, game=game, kind="rematch", key=f"rematch:{game.pk}:{seat.user_id}",
            subject=gettext_lazy("%(name)s wants to play again"),
            text=gettext_lazy("%(name)s started the next game of table %(old)s: join it at "
                              "%(page)s"),
            params={"name": by.username, "old": old.pk, "page": page})


def _seat_next(game: Game, **seat_fields) -> None:
    """Fill the lowest free seat and start the game once full. Holding the row lock."""
    taken = set(game.seats.values_list("index", flat=True))
    index = min(set(range(game.players)) - taken)
    Seat.objects.create(game=game, index=index, **seat_fields)
    if len(taken) + 1 == game.players:
        _start(game)
    transaction.on_commit(lambda: _after_change(game.pk, game.seq))


def game_add_bot(*, game_id: int, user, level: str, quotas: bool = True) -> Game:
    """The table's creator fills a free seat with a bot."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.created_by_id != user.pk:
            raise _outsider_safe(game, user, Forbidden(
                _("only the table's creator can add bots")))
        if game.status != Game.WAITING:
            raise Forbidden(_("this game has already started"))
        _clean_bots([level], game.players)
        if quotas:
            _quotas_check(user, new_table=False, bots=[level])
        _seat_next(game, bot_level=level)
    return game


def game_leave(*, game_id: int, user) -> Game:
    """Leave a table before it starts; the last person leaving closes it."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = game.seats.filter(user=user).first()
        if seat is None:
            raise _outsider_safe(game, user, NotAPlayer())
        if game.status != Game.WAITING:
            raise Forbidden(_("you cannot leave a game that has started"))
        seat.delete()
        if not game.seats.filter(user__isnull=False).exists():
            game.status = Game.ABORTED
            game.save(update_fields=["status"])
        elif game.created_by_id == user.pk:
            # The table stays open; the next human becomes its host.
            game.created_by = game.seats.filter(user__isnull=False).first().user
            game.save(update_fields=["created_by"])
        transaction.on_commit(
            lambda: _after_change(game.pk, game.seq))
    return game


def game_start(*, game_id: int) -> Game:
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.WAITING:
            raise Forbidden(_("this game has already started"))
        if game.seats.count() != game.players:
            raise Forbidden(_("the game starts when every seat is taken"))
        _start(game)
        transaction.on_commit(lambda: _after_change(game.pk, game.seq))
    return game


def _start(game: Game) -> None:
    """Shuffle the seats, deal, and draw the start player. Holding the game row lock."""
    seats = list(game.seats.all())
    occupants = [(s.user_id, s.bot_level, s.name) for s in seats]
    _system.shuffle(occupants)
    Seat.objects.filter(game=game).delete()
    Seat.objects.bulk_create(
        Seat(game=game, index=i, user_id=u, bot_level=b, name=n)
        for i, (u, b, n) in enumerate(occupants)
    )
    game.deal = deal_game(game.players, _system)  # seats' hands and start
    game.status = Game.PLAYING
    game.started = timezone.now()
    game.seq = 0
    state = initial_state(game.deal)
    game.waiting_on = state.waiting_on
    bot_seats = {i for i, (_u, b, _n) in enumerate(occupants) if b}
    game.bot_turn_since = game.started if bot_seats & set(state.waiting_on) else None
    game.save()
    state_cache_put_on_commit(game.pk, 0, state)
    events.game_started.send(game=game)


# ---- moves -------------------------------------------------------------------------------


def move_play(
    *, game_id: int, user=None, seq, move, bot_seat: int | None = None,
    queue_bots: bool = True, limited: bool = False,
) -> Game:
    """Apply one move for the user's seat (or for a bot seat, from the bot task).

    `move` is a RECORD.md move object without "seat". Raises GameNotFound, NotAPlayer,
    StaleSeq or IllegalMove; on success the move is in the log and `seq` bumped.
    `limited`: a person's request, counted toward their move rate (RateLimited past it);
    the site's own moves for a seat (timeouts, bots) are not.
    """
    return _move(game_id=game_id, user=user, seq=seq, move=move, bot_seat=bot_seat,
                 queue_bots=queue_bots, limited=limited)[0]


def move_play_view_json(*, game_id: int, user, seq, move) -> str:
    """move_play for a person's request (counted toward the move rate), answering with
    their view of the result as JSON: the one the broadcast sends them, built and encoded
    once."""
    views = _move(game_id=game_id, user=user, seq=seq, move=move, limited=True)[1]
    return views.encoded(views.for_user(user, get_language()))


def _move(*, game_id, user, seq, move, bot_seat=None, queue_bots=True, limited=False):
    if limited and user is not None and user.is_authenticated:
        rate_limit_user(user, "move")
    # the outermost block: its BEGIN and COMMIT go with its first and last statements
    owns = not transaction.get_connection().in_atomic_block
    with transaction.atomic(), events.write_scope():
        found = _locked_game_and_seats(game_id, opens=owns)
        game, seats = found
        if bot_seat is not None:
            seat = next((s for s in seats if s.index == bot_seat and s.bot_level), None)
        elif user is not None and user.is_authenticated:
            seat = next((s for s in seats if s.user_id == user.pk), None)
        else:
            seat = None
        if seat is None:
            raise _outsider_safe(game, user, NotAPlayer())
        if bot_seat is None and (seat.abandoned or seat.index in game.left_seats):
            raise Forbidden(_("you have left this game: a bot plays your seat now"))
        # API.md: any seq but the current one is 409, bets included (they are placed at
        # once; a client sends its bet again at the new seq, as the table page does)
        if type(seq) is not int or seq != game.seq:
            raise StaleSeq(game.seq)
        if game.status != Game.PLAYING:
            raise IllegalMove(_("the game is %(status)s, not being played")
                              % {"status": status_word(game.status)})
        # what the move says counts once who sends it and when are right (API.md: a
        # non-player is 403, a stale seq 409, whatever the move)
        if not isinstance(move, dict):
            raise IllegalMove(_("a move must be a JSON object"))
        if "seat" in move:
            raise IllegalMove(_('a move must not name its "seat": the server fills it in'))
        state = game_state_to_change(game, found.log_tail)
        full = {**move, "seat": seat.index}
        try:
            said = apply_told(state, full)  # applied once; its facts go to the game log
        except engine.IllegalMove as e:
            raise IllegalMove(say(e.sentence)) from None
        move_row = Move(game=game, seq=game.seq, seat=seat.index, payload=full)
        game.seq += 1
        game.waiting_on = state.waiting_on
        bot_seats = {s.index for s in seats if s.bot_level}
        fields = ["seq", "waiting_on", "bot_turn_since"]
        # The site's move cap (docs/move-cap.md): a game still going at the cap ends with
        # this move, drawn, counting for nobody, whoever is at the table.
        capped = not state.finished and game.seq >= settings.BLAZE_MAX_GAME_MOVES
        waits_on_bot = (not state.finished and not capped
                        and bool(bot_seats & set(state.waiting_on)))
        game.bot_turn_since = timezone.now() if waits_on_bot else None
        if state.finished:
            game.status = Game.FINISHED
            game.finished = timezone.now()
            game.result = {
                "scores": state.scores, "ranking": state.ranking,
                "round_losers": list(state.round_losers),
            }
            fields += ["status", "finished", "result"]
        elif capped:
            game.status = Game.ABORTED
            game.finished = timezone.now()
            game.waiting_on = []
            fields += ["status", "finished"]
        # The listeners' writes (the clocks) travel with the move's own statement: one
        # round trip; they see `game` as it is about to be written. A move that ends
        # nothing writes nothing after it: COMMIT goes in that round trip too, so its
        # views are built first.
        ends = state.finished or capped
        with rows.one_round_trip():
            events.move_played.send(game=game, seat=seat.index, move=full, state=state,
                                    seats=seats)
            if not ends:
                views = _views_build(game, seats, state, said)
            rows.insert_and_update(move_row, game, fields, commits=owns and not ends)
        if state.finished:
            events.game_ended.send(game=game, reason=events.FINISHED)
            review_request(game=game, seats=seats)
        elif capped:
            events.game_ended.send(game=game, reason=events.ABORTED)
            log.warning("game %s drawn at the move cap (%s moves)", game.pk, game.seq)
        if ends:
            views = _views_build(game, seats, state, said)
        state_cache_put_on_commit(game.pk, game.seq, state, said)
        # robust: the move stands; a failing broadcast or queue is logged, and clients
        # resync (a view on reconnect, or "fetch the game again" on a 409)
        transaction.on_commit(
            lambda: _after_move(game, views, bot_seats if queue_bots else set()), robust=True)
    return game, views


def _views_build(game: Game, seats, state, said):
    """Every seat's view, built once (the clocks just charged, the rest from memory); sent
    only once the move is committed."""
    return broadcast.views_build(game, seats, state, events.view_parts(game),
                                 last_events=said, spectators=watchers.watched(game))


def _after_move(game: Game, views, bot_seats: set[int]) -> None:
    """After commit: the views go out, and a bot turn is queued if one is due."""
    broadcast.views_send(views)
    _bot_turn_queue_due(game, bot_seats)


# ---- leaving a game being played ------------------------------------------------------------


def seat_abandon(*, game: Game, seat: Seat, reason: str, now=None) -> None:
    """Record that the seat's player left the game: the built-in bot plays the seat from
    now on and the player ranks last, whatever the bot scores (games.standing). Call
    holding the game row lock. After commit the change reaches the game's sockets (at the
    game's `seq`: API.md pushes a change without a move at the same `seq`) and the bot is
    woken if the game waits on it."""
    seat.abandoned = True
    seat.abandoned_reason = reason
    seat.abandoned_at = now or timezone.now()
    seat.bot_level = Seat.TAKEOVER_BOT_LEVEL
    seat.save(update_fields=["abandoned", "abandoned_reason", "abandoned_at", "bot_level"])
    # the row, not the caller's instance, which may be a move behind (the caller holds its lock)
    left, seq = Game.objects.filter(pk=game.pk).values_list("left_seats", "seq").get()
    left = left or []
    if seat.index not in left:
        Game.objects.filter(pk=game.pk).update(left_seats=sorted([*left, seat.index]))
    # The game may wait on this seat: from now on it waits on a bot.
    playing = Game.objects.filter(pk=game.pk, status=Game.PLAYING, bot_turn_since__isnull=True)
    if seat.index in (playing.values_list("waiting_on", flat=True).first() or []):
        playing.update(bot_turn_since=seat.abandoned_at)
    game_id = game.pk
    transaction.on_commit(lambda: _after_change(game_id, seq))


def game_resign(*, game_id: int, user) -> Game:
    """Resign a game being played: the built-in bot takes the seat and the player ranks
    last in the result, the ratings and tournament points."""
    with transaction.atomic():
        game = _locked_game(game_id)
        seat = game.seats.filter(user=user).first() if user is not None else None
        if seat is None:
            raise _outsider_safe(game, user, NotAPlayer())
        if game.status == Game.WAITING:
            raise Forbidden(_("the game has not started: leave the table instead"))
        if game.status != Game.PLAYING:
            raise Forbidden(_("the game is %(status)s: there is nothing left to resign")
                            % {"status": status_word(game.status)})
        if seat.abandoned:
            raise Forbidden(_("you have already left this game"))
        seat_abandon(game=game, seat=seat, reason=Seat.RESIGNED)
    return game


# ---- imported records ----------------------------------------------------------------------


def record_import(*, user, record) -> Game:
    """An analysis copy of a blaze-record/1: finished, replayable, never played on.

    At most settings.BLAZE_MAX_GAME_MOVES moves, like a live game: counted before replaying.
    """
    from django.conf import settings

    rate_limit_user(user, "record_import")
    cap = settings.BLAZE_MAX_GAME_MOVES
    if text_unstorable(record):
        raise BadRequest(_("the record holds a NUL character or a broken (lone surrogate) "
                           "character: remove it and import again"))
    if _record_move_count(record) > cap:
        raise BadRequest(_("a record may hold at most %(cap)d moves, like a game on this site")
                         % {"cap": cap})
    try:
        state = import_record(record)
    except RecordError as e:
        where = ""  # a fault of a round's deal names its round in its own words
        if e.round is not None and e.ply is not None:
            where = _(" (round %(round)s, move %(ply)s)") % {"round": e.round, "ply": e.ply}
        raise BadRequest(f"{say(e.sentence)}{where}") from None
    except RecursionError:
        raise BadRequest(_("the record is nested too deeply")) from None
    rounds = [{"hands": h, "deck": d} for h, d in state.deals]
    deal = {"rounds": rounds, "start": state.starts[0]}
    moves = [m for round_moves in state.moves for m in round_moves]
    with transaction.atomic():
        game = Game.objects.create(
            players=state.n, status=Game.FINISHED, imported=True, created_by=user,
            deal=deal, seq=len(moves), time_control={"kind": "imported"},
            private=True, invite_code=secrets.token_urlsafe(12),
            finished=timezone.now(),
            result={"scores": state.scores, "ranking": state.ranking,
                    "round_losers": list(state.round_losers)},
        )
        names = [str(p)[:150] for p in record["players"]]
        Seat.objects.bulk_create(
            Seat(game=game, index=i, name=name or f"seat {i}") for i, name in enumerate(names)
        )
        try:
            Move.objects.bulk_create(
                Move(game=game, seq=i, seat=m["seat"], payload=m) for i, m in enumerate(moves)
            )
        except IntegrityError:  # pragma: no cover - seq are distinct by construction
            raise BadRequest(_("the record could not be stored")) from None
    return game


def _record_move_count(record: dict) -> int:
    """The moves a record lists (0 where its shape is wrong: the engine reports that)."""
    rounds = record.get("rounds") if isinstance(record, dict) else None
    if not isinstance(rounds, list):
        return 0
    return sum(len(r["moves"]) for r in rounds
               if isinstance(r, dict) and isinstance(r.get("moves"), list))
