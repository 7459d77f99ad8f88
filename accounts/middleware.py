from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.conf import settings
from django.utils import timezone, translation
from django.utils.translation.trans_real import parse_accept_lang_header


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


def accept_language(request) -> str:
    """The API speaks English unless the request's Accept-Language asks for another of the
    site's languages (cookies and account settings are for pages, not programs)."""
    header = request.META.get("HTTP_ACCEPT_LANGUAGE", "")
    for code, _q in parse_accept_lang_header(header):
        if code == "*":
            break
        try:
            return translation.get_supported_language_variant(code)
        except LookupError:
            continue
    return settings.LANGUAGE_CODE


class UserLanguageMiddleware:
    """After LocaleMiddleware (cookie, then Accept-Language, then English): a signed-in
    player's own `language` setting wins on pages; the API follows Accept-Language only."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path_info.startswith("/api/"):
            language = accept_language(request)
        elif request.user.is_authenticated and request.user.language:
            language = request.user.language
        else:
            language = None
        if language:
            translation.activate(language)
            request.LANGUAGE_CODE = translation.get_language()
        return self.get_response(request)
