"""Logging filters, named in settings.LOGGING: a module of its own, since logging is set up
at every start (a replay command too) and must not import the request machinery."""

import logging


class NotConflictFilter(logging.Filter):
    """Drops django.request's line for a 409 answer: a stale move is normal play."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.__dict__.get("status_code") != 409


# What web servers log with a traceback for a client's own fault (docs/upgrades.md): the
# client's error, not the site's, so one warning line (a client sending bad frames should
# not fill the log with tracebacks).
CLIENT_FAULTS = frozenset({
    "Invalid UTF-8 sequence received from client.",  # uvicorn: a text frame, closed 1007
})


class ClientFaultFilter(logging.Filter):
    """A web server's traceback for a client's fault becomes one warning line."""

    def filter(self, record: logging.LogRecord) -> bool:
        if record.msg in CLIENT_FAULTS and record.exc_info:
            record.exc_info = record.exc_text = None
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
