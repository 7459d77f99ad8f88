from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_POST

from accounts.models import User

from . import notifications, preferences
from .emails import unsubscribe_user_id
from .forms import NoticeSettingsForm


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
def notice_settings(request):
    """Which notices come by push or e-mail, quiet hours, reminders: one service writes
    them (preferences.notice_settings_set); a refusal shows its sentence, nothing saved."""
    form = NoticeSettingsForm(request.POST or None, user=request.user)
    if request.method == "POST":
        if form.is_valid():
            try:
                preferences.notice_settings_set(user=request.user, **form.parts())
            except preferences.SettingsRefused as refused:
                form.add_error(None, refused.message)
            else:
                messages.success(request, _("Your notice settings are saved."))
                return redirect("notice_settings")
        return render(request, "notifications/settings.html", {"form": form}, status=400)
    return render(request, "notifications/settings.html", {"form": form})


@login_required
@require_POST
def notification_read(request, notification_id: int):
    if not notifications.notification_mark_read(user=request.user,
                                                notification_id=notification_id):
        messages.error(request, _("There is no such notice of yours."))
    return redirect("notifications")


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


# ---- the installable app: manifest, service worker (at the root: its scope is the site) --

APP_VERSION = "1"  # change to make browsers fetch the offline page anew


def app_manifest(request):
    return JsonResponse({
        "name": "Blaze online",
        "short_name": "Blaze",
        "description": _("Play Blaze, a card game for three to five players."),
        "start_url": "/",
        "scope": "/",
        "display": "standalone",
        "background_color": "#1f1b16",
        "theme_color": "#e8590c",
        "icons": [
            {"src": static("img/app-icon-192.png"), "sizes": "192x192", "type": "image/png",
             "purpose": "any maskable"},
            {"src": static("img/app-icon-512.png"), "sizes": "512x512", "type": "image/png",
             "purpose": "any maskable"},
        ],
    }, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})


def service_worker(request):
    response = render(request, "app/sw.js", {"version": APP_VERSION},
                      content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"  # browsers check for a new worker each visit
    return response


def offline(request):
    return render(request, "app/offline.html")
