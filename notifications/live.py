"""The unread count, live: every page of a signed-in player holds a socket at ws/notices/
(notifications.consumers) in the group of that player; whenever the count changes (a
notice made or updated, marked read) the new count goes to it, counted once.

Server -> client on ws/notices/:
    {"type": "unread", "count": n}     on connect and after every change
    {"type": "pong"}                   the answer to {"type": "ping"}
"""

import logging

from channels.layers import get_channel_layer
from redis.exceptions import RedisError

from games.live import publisher

from .models import Notification

log = logging.getLogger(__name__)

UNREAD = "unread"
NOTICES_UNREAD = "notices.unread"  # the channel-layer event: {"type", "count"}


def notices_group(user_id: int) -> str:
    return f"notices-u{user_id}"


def unread_count(user_id: int) -> int:
    return Notification.objects.filter(user_id=user_id, read=False).count()


def unread_message(count: int) -> dict:
    return {"type": UNREAD, "count": count}


def unread_send(user_id: int) -> None:
    """Count the player's unread notices and send the count to their open pages. After
    commit; a channel layer that is down loses only this update (the next page has it)."""
    layer = get_channel_layer()
    if layer is None:
        return
    count = unread_count(user_id)
    try:
        publisher.group_send_now(layer, notices_group(user_id),
                                 {"type": NOTICES_UNREAD, "count": count})
    except (OSError, RedisError) as exc:
        log.warning("unread count of user %s not sent: %s", user_id, exc)
