"""The public JSON API (spec/API.md), mounted at /api/v1/.

Every error answers ``{"error": sentence}`` (409 adds ``"seq"``); invalid input is 400.
"""

from functools import partial

from django.utils.translation import gettext as _
from ninja import Field, Schema, Swagger
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.parser import Parser

from clocks.calendar import calendar_url
from games.api import game_error_response
from games.api import router as games_router
from games.api_body import AuthThenBody, read_body
from games.errors import Refused
from lib.ratelimits import RateLimited
from notifications.api import notices_router
from notifications.api import router as push_router
from social.api import router as social_router

from .errors import too_many_json
from .openapi import TruthfulNinjaAPI


class JSONParser(Parser):
    """Request bodies as the authentication read them (games.api_body)."""

    def parse_body(self, request):
        return read_body(request)


api = TruthfulNinjaAPI(
    title="Blaze API",
    version="1",
    description=(
        "Play Blaze over HTTP: see spec/API.md.\n\n"
        "**Languages.** Answers are in English. Send `Accept-Language: ja` or `es` to get "
        "the `error` sentences in Japanese or Spanish (the first of the site's languages "
        "`en`, `ja`, `es` named in the header wins); everything else (field names, move "
        "objects, card codes) never changes with the language.\n\n"
        "**Move cap (a site rule beside spec/API.md).** A game still being played when "
        "its `seq` reaches the site's cap (5,000 moves by default) ends with that move, "
        "drawn for nobody: `status` `aborted`, no ranking, no rating change; a move sent "
        "afterwards answers 400. Imported records are held to the same cap (docs/move-cap.md)."
    ),
    urls_namespace="api-1.0.0",
    auth=AuthThenBody(),
    parser=JSONParser(),
    # Deep links put a link inside each operation's button (axe: nested-interactive).
    docs=Swagger(settings={"deepLinking": False}),
)


class MeOut(Schema):
    id: int
    username: str
    calendar_url: str = Field(..., description="your private iCalendar feed of deadlines "
                              "(RFC 5545); a new one is made on the calendar page")


@api.get("/me", response=MeOut, tags=["accounts"])
def me(request):
    """The authenticated user."""
    user = request.auth
    return {"id": user.pk, "username": user.username, "calendar_url": calendar_url(user)}


def _validation_sentence(errors: list) -> str:
    if not errors:
        return _("the request is not valid")
    first = errors[0]
    loc = [str(p) for p in first.get("loc", ()) if p not in ("body", "data", "query", "path")]
    where = ".".join(loc)
    if first.get("type") == "extra_forbidden":
        return _("unknown field %(field)r: leave it out") % {"field": where}
    if first.get("type") == "missing" and not where:  # the whole body
        return _("the body is missing: send a JSON object")
    said = _said(first.get("type"), first.get("ctx") or {}) or first.get("msg", "invalid")
    return f"{where}: {said}" if where else said


_WHOLE = ("int_type", "int_parsing", "int_from_float")
_OBJECT = ("dict_type", "model_type", "model_attributes_type")


def _said(kind: str | None, ctx: dict) -> str | None:
    """pydantic's sentence for the common kinds of invalid field, in the request's language
    (its own are English only); None for the others."""
    if kind == "missing":
        return _("required")
    if kind in _WHOLE:
        return _("must be a whole number")
    if kind in ("bool_type", "bool_parsing"):
        return _("must be true or false")
    if kind == "string_type":
        return _("must be a string")
    if kind == "list_type":
        return _("must be a list")
    if kind in _OBJECT:
        return _("must be a JSON object")
    if kind == "less_than_equal":
        return _("must be at most %(n)s") % {"n": ctx.get("le")}
    if kind == "greater_than_equal":
        return _("must be at least %(n)s") % {"n": ctx.get("ge")}
    if kind == "literal_error":
        return _("must be one of %(choices)s") % {"choices": ctx.get("expected")}
    if kind == "string_too_long":
        return _("must be at most %(n)s characters") % {"n": ctx.get("max_length")}
    if kind == "too_long":
        return _("must hold at most %(n)s items") % {"n": ctx.get("max_length")}
    if kind == "string_pattern_mismatch":
        return _("is not in the expected form")
    return None


def _validation_error(request, exc: ValidationError):
    return api.create_response(
        request, {"error": _validation_sentence(exc.errors), "detail": exc.errors}, status=400
    )


def _http_error(request, exc: HttpError):
    message = str(exc)
    if isinstance(exc, AuthenticationError):  # ninja's says only "Unauthorized"
        message = _("no valid credentials: sign in, or send Authorization: Bearer <token>")
    return api.create_response(request, {"error": message, "detail": str(exc)},
                               status=exc.status_code)


def _rate_limited(request, exc: RateLimited):
    return too_many_json(exc.message, exc.retry_after)


api.add_exception_handler(ValidationError, _validation_error)
api.add_exception_handler(RateLimited, _rate_limited)
api.add_exception_handler(HttpError, _http_error)
api.add_exception_handler(Refused, partial(game_error_response, api))
api.add_router("/games", games_router)
api.add_router("/push", push_router)
api.add_router("/notices", notices_router)
api.add_router("/", social_router)
