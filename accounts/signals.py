"""Signals other apps listen to (accounts sits below them and imports none of them)."""

from django.dispatch import Signal

# Sent after commit when an API token is revoked: kwargs token_id, user_id.
token_revoked = Signal()
# Sent after commit when a user is deactivated (accounts.services.user_deactivate):
# kwargs user_id. Every socket of the user closes.
user_deactivated = Signal()
# Sent inside the writer's transaction when a player changed when they are reminded or left
# alone (their reminder hours, quiet hours or time zone): kwargs user. The clocks move the
# reminders of the player's running turns (clocks.clocks.reminders_refresh).
reminder_choices_changed = Signal()
