"""Which language to speak to a player when no request is there to ask (mail, notices)."""

from django.conf import settings
from django.utils import translation
from django.utils.translation.trans_real import parse_accept_lang_header


def language_of(user) -> str:
    """The player's own setting, else the site's default (English)."""
    if user is not None and user.language:
        return user.language
    return settings.LANGUAGE_CODE


def in_language_of(user):
    """`with in_language_of(recipient):` renders text in the recipient's language."""
    return translation.override(language_of(user))


def language_of_socket(scope) -> str:
    """A WebSocket's language, chosen as for its pages (accounts.middleware): the account's
    setting, else the language switch's cookie, else Accept-Language; programs (a `?token=`)
    follow Accept-Language only, as the API does."""
    user = scope.get("user")
    if user is not None and getattr(user, "is_authenticated", False) and user.language:
        return user.language
    if scope.get("token_id") is None:
        cookie = (scope.get("cookies") or {}).get(settings.LANGUAGE_COOKIE_NAME)
        if cookie in dict(settings.LANGUAGES):
            return cookie
    for name, value in scope.get("headers", ()):
        if name == b"accept-language":
            for code, _q in parse_accept_lang_header(value.decode("latin1")):
                if code == "*":
                    break
                try:
                    return translation.get_supported_language_variant(code)
                except LookupError:
                    continue
    return settings.LANGUAGE_CODE
