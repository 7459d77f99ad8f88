"""What every API request sends, read once for all endpoints: after who sends it (401, and
CSRF's 403, come first, as in ninja's own order) and before the view.

A body, when there is one, is a JSON object or null (RFC 8259: UTF-8, a leading byte
order mark ignored; NaN and Infinity are not JSON): anything else is refused with a
sentence saying what is wrong, whatever the endpoint, so no view acts on a body it never
read. What the text may hold is each service's to say (lib.text: talk drops control
characters, other doors refuse them).
"""

from django.conf import settings
from django.utils.translation import gettext as _

from accounts.api_auth import TokenOrSessionAuth

from .engine import loads_json
from .errors import BadRequest

_READ = "blaze_api_body"  # the request's META key for the body read here
_WITH_BODY = frozenset({"POST", "PUT", "PATCH", "DELETE"})
# An HTML form's body is not read as JSON here: a client posting an empty form to an
# action that takes nothing (as Django's test client does) sends nothing to read.
_FORMS = frozenset({"multipart/form-data", "application/x-www-form-urlencoded"})


def api_body(raw: bytes) -> dict | None:
    """The body as a JSON object (null: none), or BadRequest saying what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise BadRequest(_("the body is not JSON: it is not UTF-8 text")) from None
    try:
        value = loads_json(text.removeprefix("\ufeff"))
    except RecursionError:
        raise BadRequest(_("the body is not JSON the site reads: it is nested too deeply")) \
            from None
    except ValueError as e:
        raise BadRequest(_("the body is not JSON: %(why)s") % {"why": e}) from None
    if value is not None and not isinstance(value, dict):
        raise BadRequest(_("the body must be a JSON object: {…}"))
    return value


def read_body(request) -> dict | None:
    """The body this request's authentication read (api_body), else read now."""
    if _READ in request.META:
        return request.META[_READ]
    return api_body(request.body)


def sends_json(request) -> bool:
    """Whether the request has a body to read as JSON (any but an HTML form's)."""
    return bool(request.body.strip()) and request.content_type not in _FORMS


def declared_length(request) -> int:
    """The body's length as its header declares it (0 when absent or not a number)."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


class AuthThenBody(TokenOrSessionAuth):
    """The API's authentication, then its body read (a Refused raised here is answered by
    the API's handler for it)."""

    def __call__(self, request):
        user = super().__call__(request)
        # a record's import past its cap answers 413 itself, unread (the header first)
        if (user and request.method in _WITH_BODY
                and declared_length(request) <= settings.BLAZE_MAX_RECORD_BYTES
                and len(request.body) <= settings.BLAZE_MAX_RECORD_BYTES
                and sends_json(request)):
            request.META[_READ] = api_body(request.body)
        return user
