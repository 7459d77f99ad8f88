"""Django's makemessages, also collecting the engine's `N_("…")` templates (games/engine
has no Django: its marker is games.engine.words.gettext_noop, imported as N_)."""

from django.core.management.commands import makemessages


class Command(makemessages.Command):
    xgettext_options = [*makemessages.Command.xgettext_options, "--keyword=N_"]
