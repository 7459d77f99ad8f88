"""Shared helpers for the games tests: tokens, API calls, random play."""

import json
import random
import re

from accounts.services import api_token_create
from games.engine import legal_moves
from games.models import Game
from games.selectors import game_state

CARD_RE = re.compile(r"(?<![A-Za-z0-9])[RYB][1-9F](?![A-Za-z0-9])")


def bearer(user) -> dict:
    _, secret = api_token_create(user=user, name="test")
    return {"HTTP_AUTHORIZATION": f"Bearer {secret}"}


def api_post(client, url, body, auth: dict | None = None):
    data = body if isinstance(body, (str, bytes)) else json.dumps(body)
    return client.post(url, data=data, content_type="application/json", **(auth or {}))


def api_get(client, url, auth: dict | None = None):
    return client.get(url, **(auth or {}))


def random_legal_move(game: Game, seat: int, rng: random.Random) -> dict:
    """A random legal move of `seat`, without "seat" as the API wants it."""
    move = dict(rng.choice(legal_moves(game_state(game), seat)))
    del move["seat"]
    return move


def visible_cards(state, seat) -> dict:
    """Card -> how many times `seat` may see it in a view (options aside)."""
    from collections import Counter

    seen = Counter()
    if seat is not None:
        seen.update(state.hands[seat])
    seen.update(state.table_cards)
    seen.update(r for r in state.table_rejections if r is not None)
    seen.update(state.discard)
    for known in state.known:
        seen.update(known)
    seen[state.trump_card] += 1
    return seen


def assert_view_hides_cards(payload: dict, state, seat) -> None:
    """Every card string in a view payload is one the seat may see, and no more often
    than it may see it (the same card may exist twice in the card set). `options` only
    names one's own hand cards, so it is checked apart."""
    from collections import Counter

    payload = dict(payload)
    options = payload.pop("options", None)
    own = Counter(state.hands[seat]) if seat is not None else Counter()
    for card in CARD_RE.findall(json.dumps(options)):
        assert own[card] > 0, f"options offer {card}, not in seat {seat}'s hand"
    found = Counter(CARD_RE.findall(json.dumps(payload)))
    allowed = visible_cards(state, seat)
    for card, count in found.items():
        assert count <= allowed[card], f"{card} leaked to seat {seat} ({count} > {allowed[card]})"
