import os
import sys


def _manage_command() -> str | None:
    """The management command this process runs (`manage.py NAME ...`), else None."""
    argv = sys.argv
    if len(argv) > 1 and os.path.basename(argv[0]) == "manage.py":
        return argv[1]
    return None


#: management commands that only compute: they neither serve nor send tasks, so they
#: skip Celery here and daphne in settings.INSTALLED_APPS (each costs a fraction of a
#: second of start-up, which a command run over many files pays every time)
COMPUTE_ONLY_COMMANDS = frozenset({"blaze_replay"})
COMMAND = _manage_command()
#: whether this process may serve HTTP: not a management command, or `runserver`
SERVES = COMMAND is None or COMMAND == "runserver"

if COMMAND not in COMPUTE_ONLY_COMMANDS:
    # Load the Celery app with Django so @shared_task binds to it.
    from .celery import app as celery_app  # noqa: F401

    __all__ = ["celery_app"]
