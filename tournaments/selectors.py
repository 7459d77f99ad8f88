"""Reads: players, tables and standings, always derived from the games themselves."""

from dataclasses import dataclass

from django.db.models import Exists, OuterRef, Prefetch, Q
from django.utils import timezone

from games.models import Game, Seat
from games.standing import standing_order

from .models import Registration, Tournament, TournamentRound, TournamentTable
from .points import TableResult, standings
from .seating import met_pairs

DONE = (Game.FINISHED, Game.ABORTED)


def bot_key(game_id: int, index: int) -> tuple:
    """How an anonymous bot seat appears among players: never a registered user id."""
    return ("bot", game_id, index)


def tournament_registrations(tournament: Tournament, *, active_only: bool = True):
    qs = Registration.objects.filter(tournament=tournament).select_related("user")
    if active_only:
        qs = qs.filter(withdrawn__isnull=True)
    return list(qs)


def tournament_seed_order(tournament: Tournament) -> list[int]:
    """User ids of every registration (withdrawn too) in registration order: the seed."""
    return list(
        Registration.objects.filter(tournament=tournament).values_list("user_id", flat=True)
    )


def tournament_active_user_ids(tournament: Tournament) -> list[int]:
    return [r.user_id for r in tournament_registrations(tournament)]


def _tables(tournament: Tournament):
    seats = Prefetch("game__seats", queryset=Seat.objects.select_related("user"))
    return (
        TournamentTable.objects.filter(round__tournament=tournament)
        .select_related("game", "round")
        .prefetch_related(seats)
        .order_by("round__number", "number")
    )


def _seat_key(seat: Seat):
    return seat.user_id if seat.user_id is not None else bot_key(seat.game_id, seat.index)


@dataclass
class RoundTables:
    round: TournamentRound
    tables: list  # TournamentTable, each with .seat_list (the game's seats)

    @property
    def finished(self) -> bool:
        return all(t.game.status in DONE for t in self.tables)


def tournament_rounds(tournament: Tournament) -> list[RoundTables]:
    by_round: dict[int, RoundTables] = {}
    for table in _tables(tournament):
        table.seat_list = list(table.game.seats.all())
        entry = by_round.setdefault(table.round.number, RoundTables(table.round, []))
        entry.tables.append(table)
    return [by_round[k] for k in sorted(by_round)]


def table_result(game: Game, seats: list[Seat]) -> TableResult | None:
    """The finished game's players best first (those who left the game last, as
    games.standing orders them), with their scores; None if not finished."""
    if game.status != Game.FINISHED or not game.result:
        return None
    by_index = {s.index: s for s in seats}
    left = {s.index for s in seats if s.abandoned}
    order = standing_order(game.result["ranking"], left)
    scores = game.result["scores"]
    return TableResult([_seat_key(by_index[i]) for i in order], [scores[i] for i in order],
                       frozenset(_seat_key(by_index[i]) for i in left))


def tournament_results(tournament: Tournament, rounds=None) -> list[TableResult]:
    results = []
    for entry in rounds if rounds is not None else tournament_rounds(tournament):
        for table in entry.tables:
            result = table_result(table.game, table.seat_list)
            if result is not None:
                results.append(result)
    return results


def tournament_met_pairs(tournament: Tournament) -> set[frozenset]:
    tables = [t for entry in tournament_rounds(tournament) for t in entry.tables]
    return met_pairs([[_seat_key(s) for s in t.seat_list] for t in tables])


@dataclass
class StandingRow:
    rank: int
    user: object
    points: int
    score: int
    opponents_points: int
    played: int
    withdrawn: bool
    eliminated_in: int | None = None  # elimination: the round a player went out in


def tournament_standings(tournament: Tournament, *, rounds=None,
                         registrations=None) -> list[StandingRow]:
    """Registered players ranked on the finished games so far (bots left out).

    Swiss: points, game score, opponents' points, seed. Elimination: the furthest round
    reached first, then the placement at that round's table, then the same keys.
    `rounds` (tournament_rounds) and `registrations` (all, withdrawn too, in registration
    order) when the caller has them already.
    """
    if registrations is None:
        registrations = tournament_registrations(tournament, active_only=False)
    if rounds is None:
        rounds = tournament_rounds(tournament)
    regs = {r.user_id: r for r in registrations}
    seeds = [r.user_id for r in registrations]  # tournament_seed_order's order
    rows = standings(seeds, tournament_results(tournament, rounds), tournament.points)
    rows = [r for r in rows if r.player in regs]
    reached: dict[int, tuple[int, int]] = {}
    if tournament.format == Tournament.ELIMINATION:
        for entry in rounds:
            for table in entry.tables:
                result = table_result(table.game, table.seat_list)
                place = {p: result.place(i) for i, p in enumerate(result.players)} if result else {}
                for s in table.seat_list:
                    key = _seat_key(s)
                    reached[key] = (entry.round.number, place.get(key, len(table.seat_list)))
        rows.sort(key=lambda r: (-reached.get(r.player, (0, 0))[0],
                                 reached.get(r.player, (0, 0))[1], r.sort_key))
    last_round = max((v[0] for v in reached.values()), default=0)
    out = []
    for i, r in enumerate(rows, start=1):
        out_round = reached.get(r.player, (0, 0))[0]
        eliminated = out_round if reached and out_round < last_round else None
        out.append(StandingRow(
            rank=i, user=regs[r.player].user, points=r.points, score=r.score,
            opponents_points=r.opponents_points, played=r.played,
            withdrawn=regs[r.player].withdrawn is not None, eliminated_in=eliminated,
        ))
    return out


LIST_PAGE = 50  # tournaments a section of the list shows a page
STANDINGS_PAGE = 50  # players a page of a tournament's standings (or registrations) shows


def tournament_page(tournament: Tournament, *, viewer=None, page: int = 1,
                    round_number: int | None = None) -> dict:
    """What a tournament's page shows, in a fixed number of queries and a bounded size
    however many play (200 at most): a page of the standings (or, before the first round,
    of the registrations), the viewer's own line, and the tables of one round (the
    latest unless `round_number` names another); the other rounds are links."""
    registrations = tournament_registrations(tournament, active_only=False)
    rounds = tournament_rounds(tournament)
    standing = (tournament_standings(tournament, rounds=rounds, registrations=registrations)
                if rounds else [])
    listed = standing or registrations
    pages = max(1, -(-len(listed) // STANDINGS_PAGE))
    page = min(max(page, 1), pages)
    start = (page - 1) * STANDINGS_PAGE
    viewer_id = getattr(viewer, "pk", None) if getattr(viewer, "is_authenticated", False) \
        else None
    mine = next((r for r in registrations if r.user_id == viewer_id), None)
    my_row = next((r for r in standing if r.user.pk == viewer_id), None)
    numbers = [entry.round.number for entry in rounds]
    shown = round_number if round_number in numbers else (numbers[-1] if numbers else None)
    return {
        "registrations": registrations[start:start + STANDINGS_PAGE] if not standing else [],
        "registration_start": start + 1,
        "active_count": sum(r.withdrawn is None for r in registrations),
        "my_registration": mine,
        "standings": standing[start:start + STANDINGS_PAGE],
        "my_standing": my_row if my_row and not start < my_row.rank <= start + len(
            standing[start:start + STANDINGS_PAGE]) else None,
        "page": page, "pages": pages,
        "previous_page": page - 1 if page > 1 else None,
        "next_page": page + 1 if page < pages else None,
        "rounds": [entry for entry in rounds if entry.round.number == shown],
        "round_numbers": numbers,
        "shown_round": shown,
    }


def tournament_list(page: int = 1) -> dict:
    """Upcoming (registering), running and finished (or cancelled) tournaments, a page of
    each (`page` from 1; the first page of upcoming and running is the soonest and oldest),
    and whether any section has a next page."""
    qs = Tournament.objects.select_related("organiser")
    start = (page - 1) * LIST_PAGE
    window = slice(start, start + LIST_PAGE + 1)  # one more: is there a next page?
    sections = {
        "upcoming": qs.filter(status=Tournament.REGISTERING).order_by("starts_at", "pk"),
        "running": qs.filter(status=Tournament.RUNNING).order_by("pk"),
        "finished": qs.filter(Q(status=Tournament.FINISHED) | Q(status=Tournament.CANCELLED))
        .order_by("-finished", "-pk"),
    }
    out = {name: list(rows[window]) for name, rows in sections.items()}
    more = any(len(rows) > LIST_PAGE for rows in out.values())
    return {**{name: rows[:LIST_PAGE] for name, rows in out.items()},
            "page": page, "next_page": page + 1 if more else None,
            "previous_page": page - 1 if page > 1 else None}


def tournaments_due(now=None) -> list[int]:
    now = now or timezone.now()
    return list(
        Tournament.objects.filter(status=Tournament.REGISTERING, starts_at__lte=now)
        .values_list("pk", flat=True)
    )


def tournaments_to_advance() -> list[int]:
    """Running tournaments whose current round is paired and has every game done: what
    the tick advances, in one query (never every table of every running tournament)."""
    current = TournamentRound.objects.filter(tournament=OuterRef("pk"),
                                             number=OuterRef("current_round"))
    playing = TournamentTable.objects.filter(
        round__tournament=OuterRef("pk"), round__number=OuterRef("current_round"),
    ).exclude(game__status__in=DONE)
    return list(Tournament.objects.filter(status=Tournament.RUNNING)
                .filter(Exists(current)).exclude(Exists(playing))
                .values_list("pk", flat=True))
