#!/usr/bin/env python
import os
import sys


def replay_without_django(argv: list[str]) -> bool:
    """`manage.py blaze_replay FILE` (RECORD.md) replays with the engine alone, which has no
    Django in it: no settings, apps or database to load first (start-up is most of the
    time of a run over one file). Any other form goes through Django's command."""
    return len(argv) == 3 and argv[1] == "blaze_replay" and (
        argv[2] == "-" or not argv[2].startswith("-"))


if __name__ == "__main__":
    if replay_without_django(sys.argv):
        from games.engine.cli import main

        sys.exit(main(sys.argv[2:]))
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "blaze_site.settings")
    from django.core.management import execute_from_command_line

    execute_from_command_line(sys.argv)
