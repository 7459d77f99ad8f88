from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import User

from . import notifications, vacations
from .emails import unsubscribe_user_id
from .forms import VacationForm


@login_required
def notification_list(request):
    if request.method == "POST":
        notifications.notifications_mark_read(user=request.user)
        return redirect("notifications")
    notes = request.user.notifications.select_related("game")[:100]
    unsubscribed = hasattr(request.user, "email_opt_out")
    return render(request, "correspondence/notifications.html",
                  {"notifications": notes, "unsubscribed": unsubscribed})


@login_required
@require_POST
def email_resubscribe(request):
    notifications.email_resubscribe(user=request.user)
    messages.success(request, _("Game emails are on again. Choose when in your settings."))
    return redirect("notifications")


# The one view without CSRF protection: mail programs POST here with no cookie or token
# (RFC 8058 one-click). The signed token is the credential, and the only effect is to stop
# emails, so a forged request can do no harm.
@csrf_exempt
def unsubscribe(request, token: str):
    user_id = unsubscribe_user_id(token)
    user = User.objects.filter(pk=user_id).first() if user_id is not None else None
    if user is None:
        return render(request, "correspondence/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "POST":
        changed = notifications.email_unsubscribe(user=user)
        return render(request, "correspondence/unsubscribe.html",
                      {"done": True, "changed": changed, "who": user})
    if request.method != "GET":
        return render(request, "correspondence/unsubscribe.html", {"bad": True}, status=405)
    return render(request, "correspondence/unsubscribe.html", {"who": user})


@login_required
def vacation(request):
    form = VacationForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            vacations.vacation_create(user=request.user, **form.cleaned_data)
        except vacations.ClockError as e:
            form.add_error(None, e.message)
        else:
            messages.success(request, _("Vacation saved: your correspondence clocks will "
                                        "stand still during it."))
            return redirect("vacation")
    year = timezone.now().year
    context = {
        "form": form,
        "vacations": request.user.vacations.all(),
        "days_left": vacations.vacation_days_left(request.user, year),
        "year": year,
        "now": timezone.now(),
    }
    return render(request, "correspondence/vacation.html", context, status=400 if
                  (request.method == "POST") else 200)


@login_required
@require_POST
def vacation_cancel(request, vacation_id: int):
    try:
        vacations.vacation_cancel(user=request.user, vacation_id=vacation_id)
    except vacations.ClockError as e:
        messages.error(request, e.message)
    else:
        messages.success(request, _("Vacation cancelled."))
    return redirect("vacation")
