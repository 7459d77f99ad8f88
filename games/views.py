"""HTML pages: lobby, my games, the table, replays and record import. Thin: parse, call a
service or selector, render. The table page renders from the same view the API sends."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.translation import get_language
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from accounts.services import GuestLimit, guest_create
from lib.ratelimits import client_ip, too_many_page

from . import events, services
from .engine import loads_json
from .models import Game, Seat
from .reviews import review_for
from .selectors import (
    game_list_for_user,
    game_list_live,
    game_list_open,
    game_log,
    game_next_for_user,
    game_summary,
    game_view_for,
    seat_names,
)
from .selectors import game_replay as game_replay_frames
from .time_controls import PRESETS, preset
from .visibility import can_watch, invite_given, invite_matches, invite_remember


def home(request):
    user = request.user if request.user.is_authenticated else None
    return render(request, "pages/home.html", {
        "live_games": [game_summary(g, user) for g in game_list_live(limit=10)],
        "parts": events.template_parts(),
    })


def rules(request):
    return render(request, "pages/rules.html")


def lobby(request):
    user = request.user if request.user.is_authenticated else None
    context = {
        "open_games": [game_summary(g, user) for g in game_list_open()],
        "live_games": [game_summary(g, user) for g in game_list_live()],
        "bot_levels": Seat.BOT_LEVELS,
        "seat_range": range(1, 5),
        "parts": events.template_parts(),
    }
    return render(request, "games/lobby.html", context)


def _player(request):
    """The signed-in user, or a new guest signed in now (a real, temporary account)."""
    if request.user.is_authenticated:
        return request.user
    # the client's address as the login limits read it (trusted-proxy settings apply)
    guest = guest_create(ip=client_ip(request), language=get_language())
    login(request, guest, backend="django.contrib.auth.backends.ModelBackend")
    return guest


def _too_many_guests(e: GuestLimit) -> HttpResponse:
    response = HttpResponse(
        _("Too many guest games were started from your address: sign up, or try again "
          "later."), status=429, content_type="text/plain; charset=utf-8")
    response["Retry-After"] = str(e.retry_after)
    return response


def _players_field(request, default: int = 4) -> int:
    try:
        return int(request.POST.get("players", default))
    except ValueError:
        return 0


@require_POST
def play_bots(request):
    """Home page's "Play against bots": a live table with bots of one level, started at
    once; a visitor without an account plays as a guest."""
    level = request.POST.get("level", "basic")
    players = _players_field(request)
    if level not in Seat.BOT_LEVELS or players not in (3, 4, 5):
        messages.error(request, _("Choose 3, 4 or 5 players and a bot level."))
        return redirect("home")
    try:
        user = _player(request)
    except GuestLimit as e:
        return _too_many_guests(e)
    try:
        game = services.game_create(
            creator=user, players=players, bots=[level] * (players - 1),
            time_control={"kind": "live", "minutes": 10},
        )
    except services.QuotaExceeded as e:
        return too_many_page(request, e.message, e.retry_after)
    except services.GameError as e:
        messages.error(request, e.message)
        return redirect("home")
    return redirect("game_table", game_id=game.pk)


@require_POST
def play_people(request):
    """The lobby's "Play with people": a seat at an open table of that size, or a new one."""
    players = _players_field(request)
    if players not in (3, 4, 5):
        messages.error(request, _("Choose 3, 4 or 5 players."))
        return redirect("play")
    try:
        user = _player(request)
    except GuestLimit as e:
        return _too_many_guests(e)
    try:
        game = services.game_seat_with_people(user=user, players=players)
    except services.QuotaExceeded as e:
        return too_many_page(request, e.message, e.retry_after)
    except services.GameError as e:
        messages.error(request, e.message)
        return redirect("play")
    return redirect("game_table", game_id=game.pk)


@login_required
@require_POST
def game_create(request):
    try:
        players = int(request.POST.get("players", "4"))
    except ValueError:
        players = 0
    bots = [b for b in request.POST.getlist("bots") if b]
    kind = request.POST.get("time_control", "live")
    try:
        # a kind the form does not offer is refused as the API refuses it
        time_control = preset(kind) if kind in PRESETS else services.time_control_cleaned(
            {"kind": kind})
        game = services.game_create(
            creator=request.user, players=players, bots=bots[: max(players - 1, 0)],
            time_control=time_control, rated=bool(request.POST.get("rated")),
            private=bool(request.POST.get("private")),
        )
    except services.QuotaExceeded as e:
        return too_many_page(request, e.message, e.retry_after)
    except services.GameError as e:
        messages.error(request, e.message)
        return redirect("play")
    return redirect("game_table", game_id=game.pk)


def my_games(request):
    games = []
    if request.user.is_authenticated:
        games = [game_summary(g, request.user) for g in game_list_for_user(user=request.user)]
    return render(request, "games/my_games.html", {"games": games})


@login_required
def game_next(request):
    """The "next game" button: the most urgent table waiting on me."""
    game = game_next_for_user(user=request.user)
    if game is None:
        messages.info(request, _("No game is waiting on you."))
        return redirect("my_games")
    return redirect("game_table", game_id=game.pk)


def game_table(request, game_id: int):
    """The table: players play here; anyone may watch a public game (no account needed)."""
    game = _watched_or_none(request, game_id)
    if game is None:
        # The site's not-found page, in DEBUG too: it opens an invite link's fragment.
        return render(request, "404.html", status=404)
    if request.GET.get("invite"):
        # An older ?invite= link: remembered now, then the address without the code (kept
        # out of later access logs, Referer headers and shared screenshots).
        return redirect("game_table", game_id=game.pk)
    user = request.user if request.user.is_authenticated else None
    view = game_view_for(game, user)
    invite_url = None
    if view.get("invite_code"):
        # In the fragment: browsers never send it, so it reaches no server log.
        invite_url = request.build_absolute_uri(
            reverse("game_table", args=[game.pk])) + f"#invite={view['invite_code']}"
    rematch = Game.objects.filter(rematch_of=game).values_list("pk", flat=True).first()
    return render(request, "games/table.html", {
        "game": game, "view": view, "invite_url": invite_url,
        "bot_levels": Seat.BOT_LEVELS,
        "can_join": game.status == Game.WAITING and view["you"] is None and user is not None,
        "is_host": user is not None and game.created_by_id == user.pk,
        "log": {"seq": game.seq, "lines": game_log(game, user)},
        "rematch": rematch,
        "parts": events.template_parts(),
    })


def _watchable(request, game_id: int) -> Game:
    """The game if this visitor may watch it (games.visibility), else 404. An invite in
    the address is remembered, so the page's API calls and socket need not carry it."""
    game = _watched_or_none(request, game_id)
    if game is None:
        raise Http404("no such game")
    return game


def _watched_or_none(request, game_id: int) -> Game | None:
    game = Game.objects.filter(pk=game_id).first()
    given = request.GET.get("invite", "")
    if game is None or not can_watch(game, request.user,
                                     invite=invite_given(request.session, game.pk, given)):
        return None
    invite_remember(request.session, game, given)
    return game


def _seat_action(request, game_id: int, action):
    try:
        action()
    except services.GameNotFound:
        raise Http404("no such game") from None
    except services.QuotaExceeded as e:
        return too_many_page(request, e.message, e.retry_after)
    except services.GameError as e:
        messages.error(request, e.message)
    return redirect("game_table", game_id=game_id)


@login_required
@require_POST
def game_join(request, game_id: int):
    invite = invite_given(request.session, game_id, request.POST.get("invite", ""))
    return _seat_action(request, game_id, lambda: services.game_join(
        game_id=game_id, user=request.user, invite_code=invite))


@require_POST
def game_invite_open(request, game_id: int):
    """An invite link's code, sent by the page from the address's fragment (#invite=…):
    kept in the session when it is the table's (204), else 404 as for any unknown game."""
    game = Game.objects.filter(pk=game_id).first()
    given = request.POST.get("invite", "")
    if game is None or not game.private or not invite_matches(game, given):
        raise Http404("no such game")
    invite_remember(request.session, game, given)
    return HttpResponse(status=204)


@login_required
@require_POST
def game_leave(request, game_id: int):
    return _seat_action(request, game_id, lambda: services.game_leave(
        game_id=game_id, user=request.user))


@login_required
@require_POST
def game_add_bot(request, game_id: int):
    return _seat_action(request, game_id, lambda: services.game_add_bot(
        game_id=game_id, user=request.user, level=request.POST.get("level", "basic")))


def game_replay(request, game_id: int):
    """A finished game move by move; public games' replays can be shared (no account)."""
    game = _watchable(request, game_id)
    if game.status != Game.FINISHED:
        raise Http404("the replay is available once the game is finished")
    user = request.user if request.user.is_authenticated else None
    names = seat_names(list(game.seats.select_related("user")))
    return render(request, "games/replay.html", {
        "game": game, "review": review_for(game, user, names)})


def game_replay_data(request, game_id: int):
    """The replay page's data, a page at a time (as GET /api/v1/games/{id}/replay), for
    anyone who may watch: shared replays of public games need no account."""
    from django.conf import settings

    game = _watchable(request, game_id)
    if game.status != Game.FINISHED:
        raise Http404("the replay is available once the game is finished")
    try:
        start = max(0, int(request.GET.get("start", "0")))
    except ValueError:
        start = 0
    return JsonResponse(game_replay_frames(
        game, start=start, limit=settings.BLAZE_REPLAY_PAGE_SIZE))


def game_log_data(request, game_id: int):
    """The table's log in words for this reader (as GET /api/v1/games/{id}/log)."""
    game = _watchable(request, game_id)
    user = request.user if request.user.is_authenticated else None
    return JsonResponse({"seq": game.seq, "lines": game_log(game, user)})


@login_required
@require_POST
def game_again(request, game_id: int):
    """"Play again": the same table's next game (bots start at once, people invited)."""
    try:
        game = services.game_again(game_id=game_id, user=request.user)
    except services.GameNotFound:
        raise Http404("no such game") from None
    except services.QuotaExceeded as e:
        return too_many_page(request, e.message, e.retry_after)
    except services.GameError as e:
        messages.error(request, e.message)
        return redirect("game_table", game_id=game_id)
    return redirect("game_table", game_id=game.pk)


@login_required
@require_POST
def record_import(request):
    cap = settings.BLAZE_MAX_RECORD_BYTES
    upload = request.FILES.get("record")
    if upload is not None and upload.size > cap:  # the size is known before reading
        messages.error(request, _("That file is too big: a record is at most %(cap)s bytes.")
                       % {"cap": number_format(cap, force_grouping=True)})
        return redirect("play")
    text = upload.read().decode("utf-8", "replace") if upload else request.POST.get("text", "")
    if not text.strip():
        messages.error(request, _("Choose a record file or paste one, then press Import."))
        return redirect("play")
    if len(text.encode()) > cap:
        messages.error(request, _("That record is too big: a record is at most %(cap)s bytes.")
                       % {"cap": number_format(cap, force_grouping=True)})
        return redirect("play")
    try:
        record = loads_json(text)
        game = services.record_import(user=request.user, record=record)
    except RecursionError:
        messages.error(request, _("That is not a record: its JSON is nested too deeply."))
        return redirect("play")
    except ValueError as e:
        messages.error(request, _("That is not JSON: %(why)s") % {"why": e})
        return redirect("play")
    except services.GameError as e:
        messages.error(request, _("That record cannot be replayed: %(why)s") % {"why": e.message})
        return redirect("play")
    return redirect("game_replay", game_id=game.pk)
