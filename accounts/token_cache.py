"""API tokens recently looked up, in this process's memory, so a busy program's requests
(a move a second) need no query to learn who sends them.

Every change that can end a token (revoking it, any change to a user or token row, a
deletion) moves a generation counter in the shared cache after commit and announces it
(lib.change_feed); a process forgets everything it remembers when it hears that, so a
revoked token is refused by every process at once (within half a second should a
process's listener fall behind; the listener reads the counter too, so a change whose
announcement was lost is heard within a second). While the listener cannot vouch that it has
heard every change, each lookup reads the counter itself (one cache round trip, far
cheaper than the query). An entry also expires after TTL seconds: the bound for changes made
behind the models' back (a bulk update) or with a cache the processes do not share.
"""

import copy
import logging
import time
from collections import OrderedDict
from threading import Lock

from django.core.cache import cache
from django.db import transaction

from lib.change_feed import ChangeFeed

log = logging.getLogger(__name__)
GENERATION_KEY = "api-token-generation"
TTL = 300.0
SIZE = 10_000

_memory: OrderedDict = OrderedDict()  # key hash -> (expires, token with its user)
_seen = None  # the generation the memory belongs to
_lock = Lock()


def _generation_read():
    return cache.get(GENERATION_KEY, 0)


_changes = ChangeFeed(GENERATION_KEY, poll=_generation_read)


def _generation():
    try:
        return _generation_read()
    except Exception:  # the cache is down: trust nothing remembered
        log.warning("token cache: generation unreadable, looking tokens up anew")
        return None


def get(key_hash: str):
    """A copy of the remembered token (and its user), or None."""
    global _seen
    generation = _changes.mark()  # no round trip while every announcement is heard
    if generation is None:
        generation = _generation()
    with _lock:
        if generation is None or generation != _seen:
            _memory.clear()
            _seen = generation
            return None
        entry = _memory.get(key_hash)
        if entry is None or entry[0] < time.monotonic():
            return None
        token = entry[1]
    return _copy(token)


def put(key_hash: str, token) -> None:
    with _lock:
        if _seen is None:
            return
        _memory[key_hash] = (time.monotonic() + TTL, _copy(token))
        _memory.move_to_end(key_hash)
        while len(_memory) > SIZE:
            _memory.popitem(last=False)


def _copy(token):
    """Callers get their own objects: a request that changes its user changes no other's."""
    mine = copy.copy(token)
    mine.user = copy.copy(token.user)
    return mine


def forget_all() -> None:
    """This process forgets at once, and every process once the change commits."""
    clear()

    def bump():
        announce()
        clear()

    transaction.on_commit(bump)


def announce() -> None:
    """Move the shared generation on and tell every process (this one included)."""
    try:
        cache.incr(GENERATION_KEY)
    except ValueError:  # no counter yet
        cache.set(GENERATION_KEY, 1, None)
    except Exception:
        log.exception("token cache: could not move the generation on")
    try:
        _changes.announce()
    except Exception:  # the listeners read the counter too: heard within a second
        log.exception("token cache: could not announce the change")


def clear() -> None:
    with _lock:
        _memory.clear()


def on_row_changed(sender, **kwargs) -> None:
    forget_all()
