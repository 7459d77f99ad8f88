"""The unread count in every page's navigation (a template context processor)."""

from django.utils.functional import SimpleLazyObject

from .notifications import notifications_unread


def unread_notices(request) -> dict:
    """`unread_notices`: counted only when a page shows it (one query), 0 for guests."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or user.is_guest:
        return {"unread_notices": 0}
    return {"unread_notices": SimpleLazyObject(lambda: notifications_unread(user))}
