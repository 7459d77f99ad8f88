"""Authentication for the ninja API: a bearer token, else the Django session."""

from ninja.errors import HttpError
from ninja.security import HttpBearer
from ninja.utils import check_csrf

from .services import api_token_user


class TokenOrSessionAuth(HttpBearer):
    """``Authorization: Bearer <token>`` for programs; the session (with CSRF) for browsers.

    A request that sends an Authorization header is judged by it alone, so a wrong
    token answers 401 even from a logged-in browser.
    """

    def __call__(self, request):
        if request.headers.get("Authorization"):
            return super().__call__(request)
        if not request.user.is_authenticated:
            return None
        if not getattr(request, "_ninja_csrf_exempt", False) and check_csrf(request):
            raise HttpError(403, "CSRF check failed.")
        return request.user

    def authenticate(self, request, token):
        user = api_token_user(token)
        if user is not None:
            request.user = user
        return user


api_auth = TokenOrSessionAuth()
