"""Anonymous requests per client address: one address without an account may read the site
at a person's pace (and a spectator's page, its API calls), not flood it. Signed-in users
and programs with a token meet the per-user limits of what they do instead. The nginx
sample (docs/nginx.conf) limits in front of every process as well."""

from lib.ratelimits import RateLimited, client_ip, count_and_check, too_many_json, too_many_page

from .errors import is_api

# Probes of monitors and load balancers (answered without a session or the database).
EXEMPT = ("/healthz",)


class AnonymousRateMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if (not request.user.is_authenticated and "HTTP_AUTHORIZATION" not in request.META
                and not request.path.startswith(EXEMPT)):
            try:
                count_and_check(f"ip:{client_ip(request)}", "anonymous_request")
            except RateLimited as e:
                if is_api(request):
                    return too_many_json(e.message, e.retry_after)
                return too_many_page(request, e.message, e.retry_after)
        return self.get_response(request)
