"""Web Push (RFC 8030), encrypted with aes128gcm (RFC 8291) and signed with VAPID
(RFC 8292) through pywebpush: subscriptions, and one notice sent to every browser of its
player. Only to the push services of WEBPUSH_ENDPOINT_HOSTS: the server must never be made
to POST to an arbitrary URL."""

import ipaddress
import json
import logging
from functools import cache
from urllib.parse import urlsplit

import requests
from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from py_vapid import Vapid
from pywebpush import WebPushException, webpush

from games.errors import Refused
from lib import vapid
from lib.text import text_unstorable

from .emails import absolute, game_path, subject_of
from .models import Notification, PushSubscription
from .notifications import push_wanted, said_to

log = logging.getLogger(__name__)

PUSH_TIMEOUT = 10  # seconds for one push service to answer
PUSH_TTL = 4 * 24 * 3600  # a push service keeps an undelivered notice this long
GONE = (404, 410)  # the subscription expired or was withdrawn: drop it (RFC 8030 §7.3)


class PushRefused(Refused):
    status = 400


class PushUnavailable(Refused):
    status = 503

    @staticmethod
    def sentence() -> str:
        return _("push notifications are not set up on this site")


def push_enabled() -> bool:
    return push_wanted()


def push_public_key() -> str | None:
    """The VAPID public key browsers subscribe with (applicationServerKey), or None."""
    return vapid.public_key(settings.WEBPUSH_VAPID_PRIVATE_KEY) if push_enabled() else None


@cache
def _signer(private_key: str) -> Vapid:
    return Vapid.from_raw(private_key.encode())


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def _host_listed(host: str) -> bool:
    for allowed in settings.WEBPUSH_ENDPOINT_HOSTS:
        allowed = allowed.strip().lower()
        if allowed.startswith("*.") and host.endswith(allowed[1:]):
            return True
        if host == allowed:
            return True
    return False


def endpoint_refusal(endpoint) -> str | None:
    """Why the server will not POST to `endpoint` (None: it may)."""
    if not isinstance(endpoint, str) or not endpoint or len(endpoint) > 1000:
        return _("endpoint must be the push service URL the browser gave (at most 1000 "
                 "characters)")
    if text_unstorable(endpoint):  # a URL never holds them; PostgreSQL could not keep them
        return _("endpoint is not a URL")
    try:
        url = urlsplit(endpoint)
        host = (url.hostname or "").lower()
        url.port  # noqa: B018 - raises ValueError on a bad port
    except ValueError:
        return _("endpoint is not a URL")
    if url.username or url.password or not host:
        return _("endpoint is not a push service URL")
    if not _host_listed(host):
        return _("push to %(host)s is not allowed: this site sends push only to the "
                 "browsers' push services") % {"host": host}
    if url.scheme == "https" or (url.scheme == "http" and _loopback(host)):
        return None
    return _("endpoint must be an https:// URL")


def _key_refusal(p256dh, auth) -> str | None:
    try:
        point = vapid.b64url_decode(p256dh) if isinstance(p256dh, str) else b""
        secret = vapid.b64url_decode(auth) if isinstance(auth, str) else b""
    except ValueError:
        return _("keys.p256dh and keys.auth must be base64url, as the browser gives them")
    if len(point) != 65 or point[0] != 4:
        return _("keys.p256dh must be the browser's P-256 public key (65 bytes, base64url)")
    if len(secret) != 16:
        return _("keys.auth must be the browser's 16-byte secret, base64url")
    return None


def push_subscribe(*, user, endpoint, p256dh, auth) -> PushSubscription:
    """Keep a browser's subscription (the same endpoint again updates it: a browser that
    changed user, or new keys). Raises PushRefused with a sentence."""
    if not push_enabled():
        raise PushUnavailable(PushUnavailable.sentence())
    reason = endpoint_refusal(endpoint) or _key_refusal(p256dh, auth)
    if reason:
        raise PushRefused(reason)
    sub, _created = PushSubscription.objects.update_or_create(
        endpoint=endpoint, defaults={"user": user, "p256dh": p256dh, "auth": auth})
    return sub


def push_unsubscribe(*, user, endpoint) -> bool:
    """Forget one of the user's subscriptions; False if there was none."""
    if not isinstance(endpoint, str) or text_unstorable(endpoint):
        return False  # no endpoint kept holds such text
    deleted, _ = PushSubscription.objects.filter(user=user, endpoint=endpoint).delete()
    return bool(deleted)


def push_payload(note: Notification, waiting: int = 1) -> dict:
    """What a browser shows, in the recipient's language: nothing beyond the notice's own
    words (written from what every seat may know). `waiting`: the games waiting on the
    player; several are stacked into one "your turn" notice that opens the most urgent."""
    with said_to(note.user):
        if note.kind == Notification.YOUR_TURN and waiting > 1:
            title = ngettext("Your turn in %(n)d game", "Your turn in %(n)d games",
                             waiting) % {"n": waiting}
            return {"title": title, "body": note.text, "url": absolute(reverse("game_next")),
                    "tag": Notification.YOUR_TURN}
        url = game_path(note.game_id) if note.game_id else "/notifications/"
        return {"title": subject_of(note), "body": note.text, "url": absolute(url),
                "tag": f"{note.kind}:{note.game_id}" if note.game_id else note.kind}


def _session() -> requests.Session:
    """No redirects: a push service that answers with one must not send the server on to
    another host."""
    session = requests.Session()
    session.max_redirects = 0
    return session


def push_send(note: Notification, waiting: int = 1) -> int:
    """Send the notice to every browser its player subscribed; returns how many push
    services took it. A subscription that is gone (404, 410) is dropped."""
    if not push_enabled():
        return 0
    data = json.dumps(push_payload(note, waiting), ensure_ascii=False)
    signer = _signer(settings.WEBPUSH_VAPID_PRIVATE_KEY)
    sent = 0
    for sub in PushSubscription.objects.filter(user_id=note.user_id):
        if endpoint_refusal(sub.endpoint):  # the allow-list shrank since it was stored
            continue
        try:
            with _session() as session:
                webpush({"endpoint": sub.endpoint, "keys": {"p256dh": sub.p256dh,
                                                             "auth": sub.auth}},
                        data=data, vapid_private_key=signer,
                        vapid_claims={"sub": settings.WEBPUSH_VAPID_SUBJECT},
                        ttl=PUSH_TTL, timeout=PUSH_TIMEOUT, requests_session=session,
                        headers={"Urgency": "high" if note.kind == Notification.YOUR_TURN
                                 else "normal"})
        except WebPushException as exc:
            status = exc.response.status_code if exc.response is not None else None
            if status in GONE:
                with transaction.atomic():
                    PushSubscription.objects.filter(pk=sub.pk).delete()
                log.info("push subscription %s is gone (%s): dropped", sub.pk, status)
            else:
                log.warning("push to subscription %s failed: %s", sub.pk, status or exc)
            continue
        except (requests.RequestException, ValueError) as exc:  # ValueError: a bad key
            log.warning("push to subscription %s failed: %s", sub.pk, exc)
            continue
        sent += 1
    return sent
