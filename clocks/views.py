from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from . import vacations
from .forms import VacationForm


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
    return render(request, "clocks/vacation.html", context, status=400 if
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
