"""Reads: a game's state rebuilt from its move log, and the views built from it.

The `Move` rows are the truth. States are cached in memory (games.state_cache) by
(game id, seq), so a state is never served for a log it does not match.
"""

from functools import cache

from django.contrib.auth import get_user_model
from django.db.models import Prefetch, Q
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from lib import rows

from . import events, state_cache
from .engine import State, export_record, public_view, state_from_deal, view
from .engine.facts import apply_told
from .events import view_parts
from .models import BOT_NAMES, Game, Move, Seat
from .narration import lines_for
from .standing import standing_order


def state_cache_clear() -> None:
    state_cache.clear()


def state_cache_put_on_commit(game_id: int, seq: int, state: State,
                              facts: list | None = None) -> None:
    """Remember a state (and the facts of the move that made it) once the transaction
    that produced it commits (at once outside a transaction): a rolled-back move must
    never be served, nor a state read from rows another transaction may still roll back."""
    state_cache.put_on_commit(game_id, seq, state, facts)


def initial_state(deal: dict) -> State:
    """The state before any move. An imported record may hold only one round."""
    if len(deal["rounds"]) == 2:
        return state_from_deal(deal)
    first = deal["rounds"][0]
    state = State(len(first["hands"]))
    state.begin_round(first["hands"], first["deck"], deal["start"])
    return state


def game_state_rebuild(game: Game) -> State:
    """Replay the move log on the stored deal: the one source of a game's state."""
    return _replayed(game, initial_state(game.deal), 0, game.seq)


def _replayed(game: Game, state: State, start: int, end: int) -> State:
    """`state` (after `start` moves, mutated) with the logged moves start … end-1 applied.
    (Every move a process did not make itself comes through here: hand-written SQL.)"""
    table = Move._meta.db_table
    payloads = rows.column(
        Move, "payload",
        f"SELECT payload FROM {table} WHERE game_id = %s AND seq >= %s AND seq < %s"
        " ORDER BY seq", [game.pk, start, end])
    for payload in payloads:
        state.apply(payload)
    return state


class GameAndSeats(tuple):
    """(game, seats) as game_and_seats reads them, and `log_tail`: (first seq, payloads),
    the log's latest moves read in the same statement, so a process whose cached state is
    a few moves behind catches up without another query; None when not read with them."""

    def __new__(cls, game: Game, seats: list[Seat], log_tail: tuple[int, list] | None):
        made = super().__new__(cls, (game, seats))
        made.log_tail = log_tail
        return made


def _state_at(game: Game, seq: int, log_tail: tuple[int, list] | None = None) -> State:
    """The state after `seq` moves (shared: never mutate it): from this process's cache,
    caught up from the newest cached state before it, or replayed from the deal (the
    moves from the log read with the game's row where they are there, else queried)."""
    state = state_cache.get(game.pk, seq)
    if state is not None:
        return state
    state = _caught_up(game, seq, log_tail)
    state_cache_put_on_commit(game.pk, seq, state)
    return state


def _caught_up(game: Game, seq: int, log_tail: tuple[int, list] | None) -> State:
    """A new state after `seq` moves, made from the newest cached state before it (or the
    deal) and the logged moves since."""
    held = state_cache.newest_upto(game.pk, seq)
    start, state = (held[0], held[1].clone()) if held else (0, initial_state(game.deal))
    logged = _logged(log_tail, start, seq)
    if logged is None:
        return _replayed(game, state, start, seq)
    for payload in logged:
        state.apply(payload)
    return state


def _logged(log_tail: tuple[int, list] | None, start: int, end: int) -> list | None:
    """The logged moves start … end-1 if the game's row came with them, else None."""
    if log_tail is None:
        return None
    since, payloads = log_tail
    if start < since or end > since + len(payloads):
        return None
    return payloads[start - since:end - since]


def game_state(game: Game, log_tail: tuple[int, list] | None = None) -> State | None:
    """The state after `game.seq` moves (shared: never mutate it; clone first). None before
    the deal. `log_tail`: the moves read with the game's row (GameAndSeats.log_tail)."""
    if game.deal is None:
        return None
    return _state_at(game, game.seq, log_tail)


def game_state_to_change(game: Game, log_tail: tuple[int, list] | None = None) -> State:
    """The state after `game.seq` moves as a copy of the caller's own, to apply a move to
    (game_state's, cloned). Not cached: the move's outcome is, once committed. A process
    that did not make the game's last moves catches up on a copy already, which is
    handed over as it is rather than cached and cloned again: each state is some thirty
    lists, and the states made at every move are most of what the garbage collector
    walks in a busy web process."""
    state = state_cache.get(game.pk, game.seq)
    return state.clone() if state is not None else _caught_up(game, game.seq, log_tail)


def game_events(game: Game, *, upto: int | None = None) -> list[tuple[int, list[dict]]]:
    """The facts of every move of the log (games.engine.facts), as (seq after the move,
    events) pairs; `upto`: only the first `upto` moves."""

    if game.deal is None:
        return []
    state = initial_state(game.deal)
    moves = Move.objects.filter(game=game, seq__lt=game.seq if upto is None else upto)
    return [(i + 1, apply_told(state, payload))
            for i, payload in enumerate(moves.order_by("seq").values_list("payload", flat=True))]


def _last_move_events(game: Game, log_tail: tuple[int, list] | None = None
                      ) -> list[tuple[int, list[dict]]]:
    """The facts of the game's latest move, from the state before it."""

    if game.deal is None or game.seq == 0:
        return []
    facts = state_cache.facts(game.pk, game.seq)
    if facts is not None:  # this process made the move
        return [(game.seq, facts)]
    before = _state_at(game, game.seq - 1, log_tail)
    found = _logged(log_tail, game.seq - 1, game.seq) or rows.column(
        Move, "payload", f"SELECT payload FROM {Move._meta.db_table}"
        " WHERE game_id = %s AND seq = %s", [game.pk, game.seq - 1])
    if not found:
        return []
    return [(game.seq, apply_told(before.clone(), found[0]))]


def game_log(game: Game, user) -> list[dict]:
    """Every move in words for this user (hidden information stays hidden)."""

    seats = game_seats(game)
    return lines_for(game_events(game), seat_names(seats),
                     seat_played(seats, seat_of(seats, user)))


def game_seats(game: Game) -> list[Seat]:
    if "seats" in getattr(game, "_prefetched_objects_cache", {}):  # a list's games
        return list(game.seats.all())
    return list(game.seats.select_related("user").order_by("index"))


def _with_seats(games):
    """A list's games with their seats and players: two queries, however many games."""
    return games.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user").order_by("index")))


# What no move, view or notice reads of a seat's user: a move would read and decode them
# (four players) for nothing. The preferences stay: clocks and notices read them.
USER_UNREAD = ("password", "last_login", "date_joined", "digest_next", "first_name",
               "last_name", "is_superuser", "is_staff")


@cache
def _game_columns():
    return (rows.Columns(Game, "g"), rows.Columns(Seat, "s"),
            rows.Columns(get_user_model(), "u", defer=USER_UNREAD))


@cache
def _seat_table_columns(model) -> rows.Columns:
    return rows.Columns(model, f"t_{model._meta.db_table}")


@cache
def _game_and_seats_sql(tables: tuple, with_moves: bool, lock: bool) -> str:
    """The statement of game_and_seats, made once for each shape."""
    g, s, u = _game_columns()
    # by the game's id, not g.id: run once for the statement, not once a seat row
    tail = (f", (SELECT json_agg(m.payload ORDER BY m.seq)::text"
            f" FROM {Move._meta.db_table} m WHERE m.game_id = %s AND m.seq >= %s)"
            ) if with_moves else ""
    joined = "".join(f", {t.sql}" for t in tables)
    joins = "".join(
        f" LEFT JOIN {t.model._meta.db_table} {t.alias} ON {t.alias}.game_id = g.id"
        f" AND {t.alias}.seat = s.{rows.quote('index')}" for t in tables)
    return (f"SELECT {g.sql}, {s.sql}, {u.sql}{joined}{tail} FROM {Game._meta.db_table} g"
            f" LEFT JOIN {Seat._meta.db_table} s ON s.game_id = g.id"
            f" LEFT JOIN {u.model._meta.db_table} u ON u.id = s.user_id{joins}"
            f" WHERE g.id = %s ORDER BY s.{rows.quote('index')}"
            f"{rows.lock_clause('g') if lock else ''}")


def game_and_seats(game_id: int, *, lock: bool = False,
                   opens: bool = False) -> GameAndSeats | None:
    """The game row and its seats with their users, in one statement (lib.rows: every
    move and every view read them); `lock`: the game row locked until the transaction
    ends (call inside transaction.atomic()); `opens`: see lib.rows.select. None: no
    such game.

    On PostgreSQL the same statement brings the moves this process's cached state lacks
    (from the newest state held, and the move before it for its words): a process that
    did not make the game's last moves catches up without another query. A locked read
    also brings the rows apps above keep a seat (events.seat_table_register), noted for
    the write: the move's listeners do not read them again."""
    g, s, u = _game_columns()
    since = None
    if rows.vendor() == "postgresql":
        held = state_cache.newest_seq(game_id)
        since = max(0, held - 1) if held else 0
    tables = [(name, _seat_table_columns(model)) for name, model in events.seat_tables()
              ] if lock else []
    sql = _game_and_seats_sql(tuple(t for _name, t in tables), since is not None, lock)
    params = [game_id] if since is None else [game_id, since, game_id]
    found = rows.select(sql, params, opens=opens)
    if not found:
        return None
    game = g.load(found[0])
    width = g.width + s.width + u.width
    log_tail = None
    if since is not None:
        logged = found[0][width + sum(t.width for _name, t in tables)]
        log_tail = (since, rows.json_loads(logged) if logged else [])
    seats = []
    for row in found:
        seat = s.load(row, g.width)
        if seat is None:
            continue
        seat.game = game
        user = u.load(row, g.width + s.width)
        if user is not None:
            seat.user = user
        seats.append(seat)
    start = width
    for name, t in tables:
        events.note(game, name, [r for r in (t.load(row, start) for row in found)
                                 if r is not None])
        start += t.width
    return GameAndSeats(game, seats, log_tail)


def seat_names(seats: list[Seat]) -> list[str]:
    """Display names in seat order; bots of one level told apart by letters; a seat its
    player left is named for the bot that plays it now."""
    names = [_("%(bot)s for %(name)s") % {"bot": BOT_NAMES[s.bot_level], "name": s.display_name}
             if s.abandoned and s.bot_level else s.display_name for s in seats]
    for name in set(names):
        same = [i for i, s in enumerate(seats) if s.bot_level and names[i] == name]
        if len(same) > 1:
            for letter, i in zip("ABCDE", same):
                names[i] = f"{name} {letter}"
    return names


def seat_played(seats: list[Seat], you: int | None) -> int | None:
    """`you`, unless that seat's player left it: they watch the bot play it, as a
    spectator (no hand, and the bot's moves are not "yours")."""
    if you is None or any(s.index == you and s.abandoned for s in seats):
        return None
    return you


def seat_of(seats: list[Seat], user) -> int | None:
    if user is None or not getattr(user, "is_authenticated", False):
        return None
    for seat in seats:
        if seat.user_id == user.pk:
            return seat.index
    return None


def _player(seat: Seat | None, state: State | None, index: int, name: str,
            feathers: list | None) -> dict:
    return {
        "name": name,
        "bot": bool(seat and (seat.bot_level or (seat.user_id and seat.user.is_bot))),
        "bot_level": seat.bot_level if seat else None,
        "open": seat is None or (seat.user_id is None and not seat.bot_level and not seat.name),
        "abandoned": bool(seat and seat.abandoned),
        "hand_size": len(state.hands[index]) if state else None,
        "feathers": feathers[index] if feathers is not None else [],
    }


_EMPTY_VIEW = {
    "round": None, "phase": None, "stage": None, "waiting_on": [], "trump_card": None,
    "trump": None, "deck_size": None, "hand_sizes": None, "table": [], "challenge": None,
    "discard": [], "out": None, "feather_stack": [], "feathers": None, "round_feathers": [],
    "known": [], "bets": None, "past_bets": [], "scores": None, "round_losers": [],
    "finished": False, "ranking": None,
}


def game_final_ranking(game: Game, seats: list[Seat] | None = None) -> list[int] | None:
    """The seats best first as the site counts them (games.standing: those who left the
    game last); None until the game has a result."""
    ranking = (game.result or {}).get("ranking")
    if not ranking:
        return None
    seats = game_seats(game) if seats is None else seats
    return standing_order(ranking, {s.index for s in seats if s.abandoned})


def game_view_for(game: Game, user, seats: list[Seat] | None = None, *,
                  log_tail: tuple[int, list] | None = None) -> dict:
    """The one payload a user gets about a game (API, WebSocket and page alike).

    Built from the engine's view for that user's seat (a spectator's view when not
    seated), so hidden cards never leave the server. `seats`: the game's seats with their
    users (game_and_seats), when the caller has them, and the `log_tail` read with them.
    """
    seats = game_seats(game) if seats is None else seats
    you = seat_of(seats, user)
    viewer_id = user.pk if user is not None and user.is_authenticated else None
    last = _last_move_events(game, log_tail)
    return view_build(game, seats, game_state(game, log_tail), you, view_parts(game),
                      viewer_id=viewer_id, last_events=last[0][1] if last else None)


def view_build(game: Game, seats: list[Seat], state: State | None, you: int | None,
               clocks: dict, *, viewer_id: int | None = None,
               last_events: list | None = None, said: dict | None = None,
               alike: dict | None = None) -> dict:
    """game_view_for from parts already in memory (no query): the seats with their users,
    the state after `game.seq` moves, the clock_view, and the facts of the latest move
    (games.engine.facts), said in words for this reader. `said` and `alike`:
    memos shared by the views of one change (the log's words; what every reader sees
    alike), so each is made once."""
    alike = {} if alike is None else alike
    if "engine" not in alike:
        alike["engine"] = public_view(state) if state is not None else None
    engine_part = alike["engine"]
    language = get_language()  # the seats' names are words too (a bot's, an open seat)
    if language not in alike:
        alike[language] = _alike_parts(game, seats, state, clocks, engine_part)
    game_part, seat_list = alike[language]
    plays = seat_played(seats, you)
    seen = ("seat", plays)  # a seat's cards and options are alike in every language
    if seen not in alike:
        alike[seen] = view(state, plays, engine_part) if state is not None else {
            **_EMPTY_VIEW, "hand": [] if plays is not None else None,
        }
    result = dict(alike[seen])
    if result.get("hand") is None:
        result.pop("hand", None)
    result.update(game_part)
    if game.status == Game.ABORTED:  # ended mid-play (the move cap): nobody is waited on
        result["waiting_on"] = []
        result.pop("options", None)
    result["you"] = you
    if "rematch" not in alike:  # the table's next game ("Play again"), once it exists
        alike["rematch"] = _rematch_id(game)
    result["rematch"] = alike["rematch"]
    # The latest move in words for this reader (the whole log: GET /api/v1/games/{id}/log).
    result["log"] = lines_for([(game.seq, last_events)], seat_list, plays, said) \
        if last_events else []
    if game.private and game.created_by_id and viewer_id == game.created_by_id:
        result["invite_code"] = game.invite_code
    return result


def _rematch_id(game: Game) -> int | None:
    if game.status not in (Game.FINISHED, Game.ABORTED) or game.imported:
        return None
    return Game.objects.filter(rematch_of_id=game.pk).values_list("pk", flat=True).first()


def _alike_parts(game: Game, seats: list[Seat], state: State | None, clocks: dict,
                 engine_part: dict | None) -> tuple[dict, list[str]]:
    """What every reader of this game's state in one language sees alike: the game's own
    fields with the players and the clocks, and the seats' names."""
    by_index = {s.index: s for s in seats}
    seat_list = seat_names(seats)
    names = dict(zip((s.index for s in seats), seat_list))
    feathers = engine_part["feathers"] if engine_part is not None else None
    game_part = {
        "id": game.pk,
        "seq": game.seq,
        "status": game.status,
        "players": [_player(by_index.get(i), state, i,
                            names[i] if i in names else _("open seat"), feathers)
                    for i in range(game.players)],
        "seats": game.players,
        "rated": game.rated,
        "private": game.private,
        "time_control": game.time_control,
        "imported": game.imported,
        "created_by": _creator_name(game, seats),
        "final_ranking": game_final_ranking(game, seats),
        **clocks,  # e.g. the clocks, from the apps above (events.view_parts)
    }
    return game_part, seat_list


def _creator_name(game: Game, seats: list[Seat]) -> str | None:
    if not game.created_by_id:
        return None
    for seat in seats:  # the creator usually sits at the table: no query
        if seat.user_id == game.created_by_id:
            return seat.user.username
    return game.created_by.username


def game_summary(game: Game, user=None) -> dict:
    """A lobby line: no cards at all."""
    seats = game_seats(game)
    you = seat_of(seats, user)
    return {
        "id": game.pk,
        "status": game.status,
        "seq": game.seq,
        "seats": game.players,
        "players": seat_names(seats),
        "bots": [s.bot_level for s in seats if s.bot_level],
        "rated": game.rated,
        "private": game.private,
        "time_control": game.time_control,
        "you": you,
        "your_turn": you is not None and game.status == Game.PLAYING and you in game.waiting_on,
        "created": game.created.isoformat(),
    }


def game_list_open(*, limit: int = 50) -> list[Game]:
    return list(_with_seats(
        Game.objects.filter(status=Game.WAITING, private=False).order_by("-created")[:limit]
    ))


def game_list_live(*, limit: int = 20) -> list[Game]:
    """Public games being played now, the most recently started first (watchable by all)."""
    return list(_with_seats(
        Game.objects.filter(status=Game.PLAYING, private=False, imported=False)
        .order_by("-started")[:limit]
    ))


def game_list_for_user(*, user, limit: int = 100) -> list[Game]:
    """The user's games, those waiting on the user first, then the most recent."""
    games = list(_with_seats(
        Game.objects.filter(seats__user=user)
        .filter(Q(status__in=[Game.WAITING, Game.PLAYING]) | Q(status=Game.FINISHED))
        .order_by("-created")
        .distinct()[:limit]
    ))
    seat_by_game = {g.pk: s.index for g in games for s in g.seats.all() if s.user_id == user.pk}

    def waits_on_me(g: Game) -> bool:
        return g.status == Game.PLAYING and seat_by_game.get(g.pk) in g.waiting_on

    # Those waiting on me by time left (the clocks know it), untimed ones after them.
    due = events.deadlines_for(user, [g.pk for g in games if waits_on_me(g)])
    order = {Game.PLAYING: 1, Game.WAITING: 2, Game.FINISHED: 3, Game.ABORTED: 4}
    return sorted(games, key=lambda g: (not waits_on_me(g), g.pk not in due,
                                        due.get(g.pk) or 0, order[g.status], -g.pk))


def game_next_for_user(*, user) -> Game | None:
    """The most urgent game waiting on the user: the soonest deadline first, then untimed
    games, oldest first. Two queries, however many games."""
    seats = (Seat.objects.filter(user=user, bot_level__isnull=True, abandoned=False,
                                 game__status=Game.PLAYING)
             .select_related("game").order_by("game_id"))
    waiting = [s.game for s in seats if s.index in s.game.waiting_on]
    if not waiting:
        return None
    due = events.deadlines_for(user, [g.pk for g in waiting])
    return min(waiting, key=lambda g: (g.pk not in due, due.get(g.pk) or 0))


def game_record(game: Game) -> dict:
    """The blaze-record/1 of the game (all cards shown: for finished games only)."""
    names = seat_names(game_seats(game))
    meta = {
        "site": "Blaze online",
        "game": game.pk,
        "time_control": game.time_control,
        "rated": game.rated,
        "started": game.started.isoformat() if game.started else None,
        "finished": game.finished.isoformat() if game.finished else None,
    }
    return export_record(game_state(game), names, meta)


def game_replay(game: Game, *, start: int = 0, limit: int = 500) -> dict:
    """One page of a finished game's replay: spectator views after plies start … start+limit-1
    (0 = the deal) with all hands (the record shows them anyway), and the moves with those
    seq numbers (move k leads from view k to view k+1). Only the page is held in memory."""
    state = initial_state(game.deal)
    end = min(start + limit, game.seq + 1)  # plies 0..seq exist
    frames, moves, events = [], [], []

    def frame() -> dict:
        return {**view(state, None), "hands": [sorted(h) for h in state.hands]}

    if start == 0:
        frames.append(frame())
    payloads = (Move.objects.filter(game=game, seq__lt=end).order_by("seq")
                .values_list("seq", "payload"))
    for seq, move in payloads.iterator(chunk_size=500):
        page_events = apply_told(state, move)  # applies the move, telling what it did
        if seq >= start:
            moves.append(move)
            events.append((seq + 1, page_events))
        if start <= seq + 1 < end:
            frames.append(frame())
    names = seat_names(game_seats(game))
    return {
        "id": game.pk,
        "players": names,
        "total_moves": game.seq,
        "start": start,
        "next": end if end <= game.seq else None,
        "moves": moves,
        "views": frames,
        "log": lines_for(events, names, None),
    }
