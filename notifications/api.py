"""The push part of the JSON API: a browser's Web Push subscription and the VAPID key it
subscribes with. Parse, call push.py, reply."""

from django.http import HttpRequest
from ninja import Field, Router, Schema, Status
from pydantic import ConfigDict

from . import push

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
