"""Error answers: JSON for every answer under /api/, readable pages elsewhere.

Django, ninja and allauth each answer some errors on their own (a 404 from the URL
resolver, a 405 from ninja, a 413 for a body too big, a 500): the middleware here turns
every one of them into ``{"error": sentence}`` under /api/, and answers rate limits with
429 and Retry-After everywhere.
"""

import json
import logging
from http import HTTPStatus

from django.core.exceptions import RequestDataTooBig
from django.http import JsonResponse
from django.utils.translation import gettext as _

from lib.ratelimits import RateLimited, too_many_json, too_many_page

log = logging.getLogger(__name__)

API_PREFIX = "/api/"
# allauth's own limits (login, sign-up, password reset) count per minute.
ALLAUTH_RETRY_AFTER = 60


def is_api(request) -> bool:
    return request.path.startswith(API_PREFIX)


def handler429(request, exception=None):
    """allauth's 429 (login, sign-up, password reset): same page, same header."""
    message = _("Too many attempts from your address. Wait a minute and try again.")
    if is_api(request):
        return too_many_json(message, ALLAUTH_RETRY_AFTER)
    return too_many_page(request, message, ALLAUTH_RETRY_AFTER)


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase.lower()
    except ValueError:
        return "error"


class ErrorAnswersMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if is_api(request) and response.status_code >= 400 and not _is_json(response):
            body = {"error": _("the request failed: %(reason)s") % {
                "reason": _reason(response.status_code)}}
            if response.status_code == 405 and response.has_header("Allow"):
                body["allowed"] = response["Allow"]
            replaced = JsonResponse(body, status=response.status_code)
            for header in ("Allow", "Retry-After"):
                if response.has_header(header):
                    replaced[header] = response[header]
            return replaced
        return response

    def process_exception(self, request, exception):
        if isinstance(exception, RateLimited):
            if is_api(request):
                return too_many_json(exception.message, exception.retry_after)
            return too_many_page(request, exception.message, exception.retry_after)
        if isinstance(exception, RequestDataTooBig):
            message = _("the request body is too big")
            if is_api(request):
                return JsonResponse({"error": message}, status=413)
            return None  # Django's 400 page
        if is_api(request):
            log.exception("error answering %s %s", request.method, request.path,
                          exc_info=exception)
            return JsonResponse({"error": _("the server failed; please try again")},
                                status=500)
        return None


def _is_json(response) -> bool:
    content_type = response.get("Content-Type", "")
    if not content_type.startswith("application/json"):
        return False
    if response.streaming:
        return True
    try:
        json.loads(response.content or b"null")
    except ValueError:
        return False
    return True

