import pytest
from django.middleware.csrf import get_token
from django.test import RequestFactory
from ninja.errors import HttpError

from accounts.api_auth import api_auth

pytestmark = pytest.mark.django_db


def _post(user, *, with_csrf: bool):
    factory = RequestFactory(enforce_csrf_checks=True)
    request = factory.post("/api/v1/games")
    if with_csrf:
        token = get_token(factory.get("/"))
        request = factory.post("/api/v1/games", HTTP_X_CSRFTOKEN=token)
        request.COOKIES["csrftoken"] = token
    request.user = user
    return request


def test_session_post_without_csrf_token_is_refused(ann):
    with pytest.raises(HttpError) as refused:
        api_auth(_post(ann, with_csrf=False))
    assert refused.value.status_code == 403


def test_session_post_with_csrf_token_is_accepted(ann):
    assert api_auth(_post(ann, with_csrf=True)) == ann


def test_session_get_needs_no_csrf_token(ann):
    request = RequestFactory().get("/api/v1/me")
    request.user = ann
    assert api_auth(request) == ann
