"""Every refusal of a request, whichever app refuses it: the base (`Refused`) and the games' own.
Apps above subclass `Refused` (ClockError, TournamentError)."""

from django.utils.translation import gettext as _


class Refused(Exception):
    """A request the site refuses, with a sentence for the person who asked (`message`).

    `status` is the HTTP status the API answers with; `retry_after` (seconds) is set when
    trying again later may work. Apps subclass it (GameError, ClockError,
    TournamentError); views show `message`, the API answers {"error": message}.
    """

    status = 400
    retry_after: int | None = None

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


class GameError(Refused):
    """A refused request about a game (see Refused)."""


class BadRequest(GameError):
    status = 400


class IllegalMove(GameError):
    status = 400


class GameNotFound(GameError):
    status = 404

    def __init__(self, message: str | None = None):
        super().__init__(message or _("no such game"))


class NotAPlayer(GameError):
    status = 403

    def __init__(self, message: str | None = None):
        super().__init__(message or _("you are not a player of this game"))


class Forbidden(GameError):
    status = 403


class QuotaExceeded(GameError):
    """Too many open tables or strong bots at once; trying later may work."""

    status = 429
    retry_after = 60


class StaleSeq(GameError):
    status = 409

    def __init__(self, current: int):
        super().__init__(_("seq is not the game's current seq %(seq)s: fetch the game again")
                         % {"seq": current})
        self.current = current
