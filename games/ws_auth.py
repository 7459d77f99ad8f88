"""WebSocket authentication by `?token=` for programs (browsers use the session)."""

from urllib.parse import parse_qs

from channels.db import database_sync_to_async

from accounts.services import api_token_user


class TokenAuthMiddleware:
    """A `token` query parameter, when present, decides the user alone: a wrong one
    marks the scope `token_invalid` and the consumer refuses the connection."""

    def __init__(self, inner):
        self.inner = inner

    async def __call__(self, scope, receive, send):
        query = parse_qs(scope.get("query_string", b"").decode())
        if "token" in query:
            user = await database_sync_to_async(api_token_user)(query["token"][0])
            scope = dict(scope, user=user, token_invalid=user is None)
        return await self.inner(scope, receive, send)
