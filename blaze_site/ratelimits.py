"""Rate limits: counted in the shared cache (django-ratelimit), one name per kind of request.

Signed-in users (session or API token) are counted per user; anonymous requests per client
address, as allauth sees it (its trusted-proxy settings apply: README "Behind a proxy").
The rates are ``settings.BLAZE_RATE_LIMITS``. A refusal is ``RateLimited``: the API answers
it with JSON, pages with a readable 429 page (blaze_site/errors.py), both with Retry-After.
"""

import logging

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django_ratelimit.core import get_usage
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


class RateLimited(Exception):
    """Too many requests of one kind; ``retry_after`` in whole seconds."""

    status = 429

    def __init__(self, message: str, retry_after: int):
        super().__init__(message)
        self.message = message
        self.retry_after = max(1, int(retry_after))


_MESSAGES = {
    "game_create": gettext_lazy("You have created too many tables lately."),
    "record_import": gettext_lazy("You have imported too many records today."),
    "move": gettext_lazy("Too many moves in a short time."),
}


def client_ip(request) -> str:
    """The client's address: allauth's reading, so logins and our limits agree."""
    from allauth.account.adapter import get_adapter  # needs the app registry

    return get_adapter(request).get_client_ip(request)


def _key(group: str, request) -> str:
    user = request.user
    if user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(request)}"


def rate_limit_check(request, name: str) -> None:
    """Count one request of kind `name`; raise RateLimited when over the rate."""
    try:
        usage = get_usage(request, group=f"blaze.{name}", key=_key,
                          rate=settings.BLAZE_RATE_LIMITS[name], increment=True)
    except (OSError, RedisError):
        # The shared cache is down (a Redis restart): a move must not fail for want of a
        # counter, so the limit is open until it is back.
        log.warning("rate limit %s not counted: the cache is unreachable", name)
        return
    if usage is not None and usage["should_limit"]:
        wait = usage["time_left"]
        raise RateLimited(
            str(_MESSAGES[name]) + " " + _("Try again in %(n)s s.") % {"n": max(1, wait)},
            retry_after=wait,
        )
