"""The public JSON API (spec/API.md), mounted at /api/v1/.

Later issues add routers here, e.g. ``api.add_router("/games", games_router)``.
"""

from ninja import NinjaAPI, Schema

from accounts.api_auth import api_auth

api = NinjaAPI(
    title="Blaze API",
    version="1",
    description="Play Blaze over HTTP: see spec/API.md.",
    urls_namespace="api-1.0.0",
    auth=api_auth,
)


class MeOut(Schema):
    id: int
    username: str


@api.get("/me", response=MeOut, tags=["accounts"])
def me(request):
    """The authenticated user."""
    return request.auth
