"""Which language to speak to a player when no request is there to ask (mail, notices)."""

from django.conf import settings
from django.utils import translation


def language_of(user) -> str:
    """The player's own setting, else the site's default (English)."""
    if user is not None and user.language:
        return user.language
    return settings.LANGUAGE_CODE


def in_language_of(user):
    """`with in_language_of(recipient):` renders text in the recipient's language."""
    return translation.override(language_of(user))
