"""Refused social requests: the API answers {"error": sentence} with the status."""

from django.utils.translation import gettext as _

from games.errors import Refused


class SocialError(Refused):
    status = 400


class NotFound(SocialError):
    status = 404


class Forbidden(SocialError):
    status = 403


class TooMany(SocialError):
    status = 429


def no_such_player(username: str) -> NotFound:
    return NotFound(_("there is no player called %(name)r") % {"name": username})
