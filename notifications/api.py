"""The notifications part of the JSON API: a browser's Web Push subscription and the VAPID
key it subscribes with; the unread count, mark read; what the player chose about notices
(channels, quiet hours, reminders). Parse, call a service, reply."""

from typing import Any

from django.http import HttpRequest
from django.utils.translation import gettext as _
from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from . import notifications, preferences, push

router = Router(tags=["push"])


class ErrorOut(Schema):
    error: str = Field(..., description="a sentence a person can act on")


class KeyOut(Schema):
    public_key: str = Field(..., description="the VAPID public key (uncompressed P-256 "
                            "point, base64url): the browser's applicationServerKey")


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
    keys: KeysIn


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


class NoticeSettingsIn(Schema):
    """Any part may be left out: it stays as it is. Nothing changes when a part is wrong."""

    model_config = ConfigDict(extra="forbid")

    channels: dict[str, Any] | None = Field(None, description="kind -> push, email, both or "
                                            "none; kinds left out stay as they are")
    quiet_hours: dict[str, Any] | None = Field(None, description='{"start": "22:00", '
                                               '"end": "07:00"}, or null for none')
    reminder_hours: list[Any] | None = Field(None, description="at most 4 whole hours, from "
                                             "1 to 336, e.g. [24, 2]; [] for the default")
    timezone: str | None = Field(None, description="an IANA time zone, e.g. Europe/Madrid")


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
    parts = {}
    for name in ("channels", "reminder_hours", "timezone"):
        if name in given:
            value = getattr(data, name)
            if value is None:
                raise preferences.SettingsRefused(
                    _("%(field)s must not be null") % {"field": name})
            parts[name] = value
    if "quiet_hours" in given:
        quiet = data.quiet_hours
        if quiet is None:
            parts["quiet_start"] = parts["quiet_end"] = None
        elif set(quiet) != {"start", "end"}:
            raise preferences.SettingsRefused(
                _('quiet_hours must be {"start": "HH:MM", "end": "HH:MM"} or null'))
        else:
            parts["quiet_start"], parts["quiet_end"] = quiet["start"], quiet["end"]
    user = preferences.notice_settings_set(user=request.auth, **parts)
    return preferences.notice_settings(user)


@notices_router.get("/unread", response=UnreadOut, summary="How many notices you have not read")
def notices_unread(request: HttpRequest):
    return {"count": notifications.notifications_unread(request.auth)}


@notices_router.post("/read", response=MarkedOut, summary="Mark every notice of yours read")
def notices_mark_read(request: HttpRequest):
    return {"marked": notifications.notifications_mark_read(user=request.auth)}


@notices_router.post("/{notification_id}/read", response={204: None},
                     summary="Mark one notice of yours read")
def notice_mark_read(request: HttpRequest, notification_id: int):
    notifications.notification_mark_read(user=request.auth, notification_id=notification_id)
    return Status(204, None)
