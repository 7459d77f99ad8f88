"""Pages: parse, call a service or selector, reply."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import selectors, services
from .forms import TournamentForm
from .models import Tournament


def tournament_list(request):
    try:
        page = int(request.GET.get("page", "1"))
    except ValueError:
        page = 0
    if not 1 <= page <= 10_000:
        # the sentence the time controls say of a bad number (translated there)
        sentence = _('"{key}" must be a whole number from {low} to {high}').format(
            key="page", low=1, high=10_000)
        return HttpResponseBadRequest(sentence, content_type="text/plain; charset=utf-8")
    return render(request, "tournaments/list.html", selectors.tournament_list(page))


@login_required
def tournament_new(request):
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            t = services.tournament_create(organiser=request.user, **form.service_kwargs())
        except services.TournamentError as e:
            form.add_error(None, e.message)
        else:
            messages.success(request, _("Your tournament is open for registration."))
            return redirect("tournament_detail", t.pk)
    return render(request, "tournaments/new.html", {"form": form})


def _whole(request, name: str, default: int | None) -> int | None:
    try:
        return int(request.GET.get(name, ""))
    except ValueError:
        return default


def tournament_detail(request, tournament_id: int):
    t = get_object_or_404(Tournament.objects.select_related("organiser"), pk=tournament_id)
    return render(request, "tournaments/detail.html", {
        "tournament": t,
        **selectors.tournament_page(t, viewer=request.user, page=_whole(request, "page", 1),
                                    round_number=_whole(request, "round", None)),
        "is_organiser": request.user.is_authenticated and request.user.pk == t.organiser_id,
    })


def _act(request, tournament_id: int, action, done: str):
    try:
        action()
    except services.TournamentError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return redirect("tournament_detail", tournament_id)


@login_required
@require_POST
def tournament_register(request, tournament_id: int):
    return _act(request, tournament_id, lambda: services.tournament_register(
        tournament_id=tournament_id, user=request.user), _("You are registered."))


@login_required
@require_POST
def tournament_withdraw(request, tournament_id: int):
    return _act(request, tournament_id, lambda: services.tournament_withdraw(
        tournament_id=tournament_id, user=request.user), _("You have withdrawn."))


@login_required
@require_POST
def tournament_start(request, tournament_id: int):
    return _act(request, tournament_id, lambda: services.tournament_start(
        tournament_id=tournament_id, user=request.user), _("The tournament has started."))


