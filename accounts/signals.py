"""Signals other apps listen to (accounts sits below them and imports none of them)."""

from django.dispatch import Signal

# Sent after commit when an API token is revoked: kwargs token_id, user_id.
token_revoked = Signal()
# Sent after commit when a user is deactivated (accounts.services.user_deactivate):
# kwargs user_id. Every socket of the user closes.
user_deactivated = Signal()
