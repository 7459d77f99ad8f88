"""Response headers: the content security policy, and no-store for pages that show secrets."""

from csp.middleware import CSPMiddleware
from django.conf import settings
from django.utils.cache import add_never_cache_headers

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
            add_never_cache_headers(response)
        return response
