"""Response headers for pages that show secrets."""

from django.conf import settings
from django.utils.cache import add_never_cache_headers


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
