"""Tables and API calls for the social tests."""

import json

from accounts.services import api_token_create
from games import services


def table(creator, others, players=None, bots=()):
    """A table with `creator` and `others` seated (and bots), started when full."""
    players = players or 1 + len(others) + len(bots)
    game = services.game_create(creator=creator, players=players, bots=list(bots))
    for user in others:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    return game


def bearer(user) -> str:
    return "Bearer " + api_token_create(user=user, name="t")[1]


def call(client, method, path, token, body=None, **headers):
    """An API request with a token; the response."""
    kwargs = {"HTTP_AUTHORIZATION": token, **headers}
    if body is not None:
        kwargs.update(data=json.dumps(body), content_type="application/json")
    return getattr(client, method.lower())(f"/api/v1{path}", **kwargs)
