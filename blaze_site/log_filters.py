"""Logging filters, named in settings.LOGGING: a module of its own, since logging is set up
at every start (a replay command too) and must not import the request machinery."""

import logging


class NotConflictFilter(logging.Filter):
    """Drops django.request's line for a 409 answer: a stale move is normal play."""

    def filter(self, record: logging.LogRecord) -> bool:
        return record.__dict__.get("status_code") != 409
