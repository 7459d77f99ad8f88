"""Anonymous sockets per client address, counted in this process: a visitor without an
account may watch a few tables at once, not open thousands (one address opened 1,500).
Each process counts its own (nothing to leak in a shared store when a process dies); the
nginx sample limits connections per address in front of all of them (docs/nginx.conf)."""

from collections import Counter

from django.conf import settings

_open: Counter = Counter()


def address(scope) -> str:
    """The client's address as daphne gives it (with --proxy-headers, the proxy's
    X-Forwarded-For)."""
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


def claim(scope) -> bool:
    """Count one more anonymous socket from this address; False past the limit."""
    key = address(scope)
    if _open[key] >= settings.BLAZE_MAX_ANON_SOCKETS_PER_ADDRESS:
        return False
    _open[key] += 1
    return True


def release(scope) -> None:
    key = address(scope)
    _open[key] -= 1
    if _open[key] <= 0:
        del _open[key]
