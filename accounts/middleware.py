from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.utils import timezone


class UserTimezoneMiddleware:
    """Pages show times in the player's own time zone (their setting), UTC otherwise."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        name = getattr(request.user, "timezone", "") if request.user.is_authenticated else ""
        timezone.deactivate()
        if name:
            try:
                timezone.activate(ZoneInfo(name))
            except (ZoneInfoNotFoundError, ValueError):
                pass  # an unknown zone (renamed since it was saved) shows UTC
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def current_timezone(request):
    """Template context: the name of the zone the page's times are shown in."""
    return {"current_tz": timezone.get_current_timezone_name()}


class StaffTwoFactorMiddleware:
    """Staff reach /admin/ only with two-factor sign-in set up; until then the admin
    sends them to the page that sets up an authenticator app."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/admin/") and request.user.is_authenticated \
                and request.user.is_staff and not _has_totp(request.user):
            from django.contrib import messages
            from django.shortcuts import redirect
            from django.utils.translation import gettext as _

            messages.info(request, _("Staff sign in with two factors: set up an "
                                     "authenticator app before you open the admin."))
            return redirect("mfa_activate_totp")
        return self.get_response(request)


def _has_totp(user) -> bool:
    from allauth.mfa.models import Authenticator

    return Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()
