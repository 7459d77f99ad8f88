"""Pages: friends, invitations and blocks; the staff's reports. Thin: parse, call, render."""

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.errors import Refused

from . import challenges, relations, reports, talk
from .forms import ActForm, InviteForm, NameForm
from .models import Block, Report
from .readers import free_text_on
from .selectors import friends_of


@login_required
def friends(request):
    user = request.user
    return render(request, "social/friends.html", {
        "friends": friends_of(user),
        "blocked": Block.objects.filter(blocker=user).select_related("blocked")
                   .order_by("blocked__username")[:500],
        "challenges": [challenges.challenge_summary(c) for c in challenges.challenges_of(user)],
        "free_text": free_text_on(user),
        "follow_form": NameForm(auto_id="follow_%s"), "block_form": NameForm(auto_id="block_%s"),
        "invite_form": InviteForm(),
    })


def _act(request, write, done: str):
    try:
        write()
    except Refused as e:
        messages.error(request, e.message)
    else:
        messages.success(request, done)
    return redirect("friends")


def _fault(form) -> str:
    """The first fault of a form that is not valid, naming its field (Django's words, in
    the page's language)."""
    field, errors = next(iter(form.errors.items()))
    label = form.fields[field].label if field in form.fields else ""
    return f"{label}: {errors[0]}" if label else errors[0]


def _name(request) -> str | None:
    """The player named in the form, or None with the form's fault shown."""
    form = NameForm(request.POST)
    if form.is_valid():
        return form.cleaned_data["username"]
    messages.error(request, _fault(form))
    return None


@login_required
@require_POST
def follow(request):
    if (name := _name(request)) is None:
        return redirect("friends")
    return _act(request, lambda: relations.follow_add(user=request.user, username=name),
                _("You follow %(name)s.") % {"name": name})


@login_required
@require_POST
def unfollow(request):
    if (name := _name(request)) is None:
        return redirect("friends")
    return _act(request, lambda: relations.follow_remove(user=request.user, username=name),
                _("You no longer follow %(name)s.") % {"name": name})


@login_required
@require_POST
def block(request):
    if (name := _name(request)) is None:
        return redirect("friends")
    return _act(request, lambda: relations.block_add(user=request.user, username=name),
                _("You blocked %(name)s.") % {"name": name})


@login_required
@require_POST
def unblock(request):
    if (name := _name(request)) is None:
        return redirect("friends")
    return _act(request, lambda: relations.block_remove(user=request.user, username=name),
                _("You unblocked %(name)s.") % {"name": name})


@login_required
@require_POST
def free_text(request):
    if request.POST.get("free_text") not in ("on", "off"):
        messages.error(request, _("Choose free text on or off."))
        return redirect("friends")
    on = request.POST.get("free_text") == "on"
    return _act(request, lambda: talk.free_text_set(user=request.user, on=on),
                _("Free text is on.") if on else _("Free text is off: phrases only."))


@login_required
@require_POST
def invite(request):
    form = InviteForm(request.POST)
    if not form.is_valid():
        messages.error(request, _fault(form))
        return redirect("friends")
    seats = form.cleaned_data["players"] - 1 - len(form.names())
    return _act(request, lambda: challenges.challenge_create(
        sender=request.user, usernames=form.names(), players=form.cleaned_data["players"],
        bots=[form.cleaned_data["bot_level"]] * max(seats, 0)), _("Invitation sent."))


@login_required
@require_POST
def answer(request, challenge_id: int):
    if request.POST.get("answer") not in ("accept", "decline"):
        messages.error(request, _("Answer the invitation: accept or decline."))
        return redirect("friends")
    accept = request.POST.get("answer") == "accept"
    try:
        challenge = challenges.challenge_answer(user=request.user, challenge_id=challenge_id,
                                                accept=accept)
    except Refused as e:
        messages.error(request, e.message)
        return redirect("friends")
    if challenge.game_id:
        return redirect("game_table", game_id=challenge.game_id)
    messages.success(request, _("Accepted: the table starts when everyone has.") if accept
                     else _("Declined."))
    return redirect("friends")


@staff_member_required
def staff_reports(request):
    if request.method == "POST":
        form = ActForm(request.POST)
        try:
            report_id = int(request.POST.get("report", ""))
        except ValueError:
            report_id = 0
        if form.is_valid():
            try:
                reports.report_act(staff=request.user, report_id=report_id,
                                   action=form.cleaned_data["action"],
                                   hours=form.cleaned_data["hours"] or 24)
                messages.success(request, _("Done."))
            except Refused as e:
                messages.error(request, e.message)
        else:
            messages.error(request, _("Choose an action."))
        return redirect("staff_reports")
    open_reports = (Report.objects.filter(handled_at__isnull=True)
                    .select_related("reporter", "reported", "message").order_by("created")[:200])
    return render(request, "social/staff_reports.html", {"reports": open_reports})
