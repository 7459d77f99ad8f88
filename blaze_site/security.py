"""Response headers: the content security policy, and no-store for pages that show secrets."""

import time
from functools import cache

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.http import HttpResponse
from django.utils.cache import add_never_cache_headers
from django.utils.http import http_date

# JSON loads nothing and is framed by nobody: the strictest policy, written as it is
# (django-csp builds the site's policy anew for every response).
JSON_POLICY = "default-src 'none'; frame-ancestors 'none'"


class SiteCSPMiddleware(CSPMiddleware):
    """django-csp's policy for pages; the fixed JSON_POLICY for the API's JSON answers."""

    def process_response(self, request, response):
        if response.get("Content-Type", "").startswith("application/json"):
            response.headers.setdefault("Content-Security-Policy", JSON_POLICY)
            return response
        return super().process_response(request, response)


class NoStoreMiddleware:
    """`Cache-Control: no-store` (with Django's other never-cache headers) under the
    prefixes of settings.BLAZE_NO_STORE_PREFIXES: a new API token, two-factor recovery
    codes or a player's hand must not stay in a browser's or proxy's cache."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if request.path.startswith(tuple(settings.BLAZE_NO_STORE_PREFIXES)):
            if "Cache-Control" in response or "Expires" in response:
                add_never_cache_headers(response)  # merged with what the view set
            else:  # the same headers, made once a second, not parsed and built each time
                response.headers["Expires"] = _http_now()
                response.headers["Cache-Control"] = _never_cache_control()
        return response


@cache
def _never_cache_control() -> str:
    """Django's own never-cache Cache-Control, as add_never_cache_headers writes it."""
    response = HttpResponse()
    add_never_cache_headers(response)
    return response["Cache-Control"]


_said = (0, "")  # (second, its HTTP date): swapped whole, so threads read either pair


def _http_now() -> str:
    global _said
    second = int(time.time())
    if _said[0] != second:
        _said = (second, http_date(second))
    return _said[1]
