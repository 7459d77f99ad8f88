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
