"""The notifications part of the JSON API: a browser's Web Push subscription and the VAPID
key it subscribes with; the unread count, mark read; what the player chose about notices
(channels, quiet hours, reminders). Parse, call a service, reply."""

from typing import Annotated, Literal

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status
from pydantic import BeforeValidator, ConfigDict, StrictInt

from games.api import no_fields
from games.engine import LongInt

from . import notifications, preferences, push

router = Router(tags=["push"])


class ErrorOut(Schema):
    error: str = Field(..., description="a sentence a person can act on")


class KeyOut(Schema):
    public_key: str = Field(..., description="the VAPID public key (uncompressed P-256 "
                            "point, base64url): the browser's applicationServerKey")


def _an_object(value):
    """A part of the body that is an object must be one: ninja reads a schema from any
    value with attributes, and a number too long for Python is kept as such a value."""
    if isinstance(value, LongInt):
        raise ValueError("Input should be an object")
    return value


def _part(schema):
    return Annotated[schema, BeforeValidator(_an_object)]


class KeysIn(Schema):
    model_config = ConfigDict(extra="forbid")

    p256dh: str = Field(..., max_length=100, description="the browser's P-256 key, base64url")
    auth: str = Field(..., max_length=50, description="the browser's auth secret, base64url")


class SubscriptionIn(Schema):
    """The browser's PushSubscription JSON (`subscription.toJSON()`)."""

    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(..., max_length=1000, description="the push service URL; only "
                          "the browsers' push services are accepted (https)")
    expirationTime: int | None = Field(None, description="as the browser gives it; unused")  # noqa: N815
    keys: _part(KeysIn)


class SubscriptionOut(Schema):
    endpoint: str


class EndpointIn(Schema):
    model_config = ConfigDict(extra="forbid")

    endpoint: str = Field(..., max_length=1000)


@router.get("/key", response={200: KeyOut, 503: ErrorOut}, auth=None,
            summary="The VAPID public key to subscribe with")
def push_key(request: HttpRequest):
    key = push.push_public_key()
    if key is None:
        return Status(503, {"error": push.PushUnavailable.sentence()})
    return {"public_key": key}


@router.post("/subscriptions", response={201: SubscriptionOut, 400: ErrorOut, 503: ErrorOut},
             summary="Keep this browser's push subscription: notices come by push")
def push_subscribe(request: HttpRequest, data: SubscriptionIn):
    sub = push.push_subscribe(user=request.auth, endpoint=data.endpoint,
                              p256dh=data.keys.p256dh, auth=data.keys.auth)
    return Status(201, {"endpoint": sub.endpoint})


@router.delete("/subscriptions", response={204: None},
               summary="Forget a push subscription of yours (nothing to forget is fine)")
def push_unsubscribe(request: HttpRequest, data: EndpointIn):
    push.push_unsubscribe(user=request.auth, endpoint=data.endpoint)
    return Status(204, None)


# ---- the notice centre and what a player chose about notices ------------------------------

notices_router = Router(tags=["notices"])


class QuietHours(Schema):
    start: str = Field(..., description="local time the quiet hours begin, HH:MM")
    end: str = Field(..., description="local time they end, HH:MM (before start: the next "
                     "day)")


class NoticeSettingsOut(Schema):
    channels: dict[str, str] = Field(..., description="per kind of notice: push, email, "
                                     "both or none (in the site it is always kept)")
    quiet_hours: QuietHours | None = Field(..., description="no push or mail meanwhile, in "
                                           "`timezone`; what was held comes as one summary "
                                           "when they end")
    reminder_hours: list[int] = Field(..., description="reminders this many hours before a "
                                      "correspondence deadline; empty: one at the last "
                                      "fifth of the clock")
    timezone: str


Channel = Literal["push", "email", "both", "none"]
HourOfDay = Annotated[str, Field(pattern=r"^([01]?[0-9]|2[0-3]):[0-5][0-9]$",
                                 examples=["22:00"])]


class ChannelsIn(Schema):
    """Kinds left out stay as they are."""

    model_config = ConfigDict(extra="forbid")

    your_turn: Channel = None
    almost_out: Channel = Field(None, description="deadline reminders")
    timeout: Channel = None
    game_over: Channel = None
    invitation: Channel = Field(None, description="invitations and challenges")
    rematch: Channel = Field(None, description="a table's next game (play again)")
    tournament: Channel = Field(None, description="tournament rounds and news")
    summary: Channel = Field(None, description="the summary after quiet hours")


class QuietHoursIn(Schema):
    model_config = ConfigDict(extra="forbid")

    start: HourOfDay
    end: HourOfDay = Field(..., description="not the same as start; before it: the next day")


class NoticeSettingsIn(Schema):
    """Any part may be left out: it stays as it is. Nothing changes when a part is wrong."""

    model_config = ConfigDict(extra="forbid")

    channels: _part(ChannelsIn) = Field(None, description="per kind: push, email, both or none")
    quiet_hours: _part(QuietHoursIn) | None = Field(None, description="null: no quiet hours")
    reminder_hours: list[Annotated[StrictInt, Field(ge=1, le=preferences.MAX_REMINDER_HOURS)]] \
        = Field(None, max_length=preferences.MAX_REMINDERS,
                description="hours before a correspondence deadline, e.g. [24, 2]; [] for "
                "the one reminder at the last fifth of the clock")
    timezone: str = Field(None, min_length=1, max_length=64,
                          description="an IANA time zone, e.g. Europe/Madrid")


class UnreadOut(Schema):
    count: int = Field(..., description="your unread notices")


class MarkedOut(Schema):
    marked: int


@notices_router.get("/settings", response=NoticeSettingsOut,
                    summary="What you chose: channels, quiet hours, reminders")
def notice_settings_get(request: HttpRequest):
    return preferences.notice_settings(request.auth)


@notices_router.patch("/settings", response={200: NoticeSettingsOut, 400: ErrorOut},
                      summary="Change what you chose (only the parts you send)")
def notice_settings_patch(request: HttpRequest, data: NoticeSettingsIn):
    given = data.model_fields_set
    parts = {name: getattr(data, name) for name in ("reminder_hours", "timezone")
             if name in given}
    if "channels" in given:
        parts["channels"] = data.channels.model_dump(exclude_unset=True)
    if "quiet_hours" in given:
        quiet = data.quiet_hours
        parts["quiet_start"] = quiet.start if quiet else None
        parts["quiet_end"] = quiet.end if quiet else None
    user = preferences.notice_settings_set(user=request.auth, **parts)
    return preferences.notice_settings(user)


@notices_router.get("/unread", response=UnreadOut, summary="How many notices you have not read")
def notices_unread(request: HttpRequest):
    return {"count": notifications.notifications_unread(request.auth)}


@notices_router.post("/read", response=MarkedOut, summary="Mark every notice of yours read")
def notices_mark_read(request: HttpRequest):
    no_fields(request)
    return {"marked": notifications.notifications_mark_read(user=request.auth)}


@notices_router.post("/{int:notification_id}/read", response={204: None, 404: ErrorOut},
                     summary="Mark one notice of yours read")
def notice_mark_read(request: HttpRequest, notification_id: int):
    no_fields(request)
    if not notifications.notification_mark_read(user=request.auth,
                                                notification_id=notification_id):
        return Status(404, {"error": _("no such notice of yours")})
    return Status(204, None)
