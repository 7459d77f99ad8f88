from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import User

from . import notifications
from .emails import unsubscribe_user_id


@login_required
def notification_list(request):
    if request.method == "POST":
        notifications.notifications_mark_read(user=request.user)
        return redirect("notifications")
    notes = request.user.notifications.select_related("game")[:100]
    unsubscribed = hasattr(request.user, "email_opt_out")
    return render(request, "notifications/notifications.html",
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
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=400)
    if request.method == "POST":
        changed = notifications.email_unsubscribe(user=user)
        return render(request, "notifications/unsubscribe.html",
                      {"done": True, "changed": changed, "who": user})
    if request.method != "GET":
        return render(request, "notifications/unsubscribe.html", {"bad": True}, status=405)
    return render(request, "notifications/unsubscribe.html", {"who": user})
