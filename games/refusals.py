"""The one base of every refused request, whichever app refuses it."""


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
