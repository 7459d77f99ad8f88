"""Signals other apps listen to (accounts sits below them and imports none of them)."""

from django.dispatch import Signal

# Sent after commit when an API token is revoked: kwargs token_id, user_id.
token_revoked = Signal()
