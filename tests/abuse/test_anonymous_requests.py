"""Requests without an account or a token are limited per client address, on pages and the
API alike; people signed in, programs with a token, other addresses and health probes are
not counted against them."""

import pytest
from django.test import Client

from accounts.services import api_token_create

pytestmark = pytest.mark.django_db

LIMIT = 5


@pytest.fixture(autouse=True)
def _small_limit(settings):
    # A day's window: a test never straddles the end of it (minute windows could).
    settings.BLAZE_RATE_LIMITS = {**settings.BLAZE_RATE_LIMITS,
                                  "anonymous_request": f"{LIMIT}/d"}


def _flood(client, path="/", **extra):
    return [client.get(path, **extra).status_code for _ in range(LIMIT)]


def test_one_address_past_the_rate_gets_a_429_page_then_json_on_the_api():
    visitor = Client(REMOTE_ADDR="203.0.113.7")
    assert _flood(visitor) == [200] * LIMIT
    page = visitor.get("/rules/")
    assert page.status_code == 429 and int(page["Retry-After"]) >= 1
    assert "Too many requests from your address" in page.content.decode()
    api = visitor.get("/api/v1/games")
    assert api.status_code == 429 and "Too many requests" in api.json()["error"]


def test_other_addresses_members_programs_and_health_probes_are_not_counted(ann):
    visitor = Client(REMOTE_ADDR="203.0.113.8")
    _flood(visitor)
    assert visitor.get("/").status_code == 429
    assert Client(REMOTE_ADDR="203.0.113.9").get("/").status_code == 200
    member = Client(REMOTE_ADDR="203.0.113.8")
    member.force_login(ann)
    assert _flood(member) + [member.get("/").status_code] == [200] * (LIMIT + 1)
    secret = api_token_create(user=ann, name="bot")[1]
    program = Client(REMOTE_ADDR="203.0.113.8", HTTP_AUTHORIZATION=f"Bearer {secret}")
    assert {program.get("/api/v1/games").status_code for _ in range(LIMIT + 1)} == {200}
    assert visitor.get("/healthz").status_code != 429
