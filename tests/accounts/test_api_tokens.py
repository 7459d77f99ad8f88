import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.urls import reverse

from accounts.models import ApiToken, User
from accounts.services import api_token_create

pytestmark = pytest.mark.django_db


def _me(client, token):
    return client.get("/api/v1/me", headers={"Authorization": f"Bearer {token}"})


def test_token_created_on_page_works_until_revoked(ann_client, ann, client):
    response = ann_client.post(reverse("account_tokens"), {"name": "my bot"})
    secret = re.search(r'id="new-token">([^<]+)<', response.content.decode()).group(1)
    token = ApiToken.objects.get(user=ann)
    assert token.key_hash != secret and secret not in token.key_hash

    ann_client.logout()
    response = _me(client, secret)
    assert response.status_code == 200
    me = response.json()
    assert {me["id"], me["username"]} == {ann.pk, "ann"}
    token.refresh_from_db()
    assert token.last_used is not None

    client.force_login(ann)
    client.post(reverse("account_token_revoke", args=[token.pk]))
    client.logout()
    assert _me(client, secret).status_code == 401


def test_token_list_never_shows_the_secret_again(ann_client, ann):
    _, secret = api_token_create(user=ann, name="script")
    page = ann_client.get(reverse("account_tokens")).content.decode()
    assert "script" in page
    assert secret not in page


def test_another_users_token_cannot_be_revoked(client, ann, bob):
    token, secret = api_token_create(user=ann, name="script")
    client.force_login(bob)
    client.post(reverse("account_token_revoke", args=[token.pk]))
    client.logout()
    assert _me(client, secret).status_code == 200


@pytest.mark.parametrize("header", ["Bearer blz_not-a-real-token", "Bearer ", "Basic YW5uOng="])
def test_wrong_credentials_get_401(client, ann, header):
    assert client.get("/api/v1/me", headers={"Authorization": header}).status_code == 401


def test_no_credentials_get_401(client):
    assert client.get("/api/v1/me").status_code == 401


def test_session_authenticates_the_api(ann_client, ann):
    assert ann_client.get("/api/v1/me").json()["username"] == "ann"


def test_blaze_token_prints_a_working_token_for_a_new_user(client):
    out = StringIO()
    call_command("blaze_token", "gus", stdout=out)
    secret = out.getvalue().strip()
    assert "\n" not in secret
    assert User.objects.get(username="gus").has_usable_password() is False
    assert _me(client, secret).json()["username"] == "gus"


def test_blaze_create_bots_is_idempotent():
    call_command("blaze_create_bots", stdout=StringIO())
    call_command("blaze_create_bots", stdout=StringIO())
    bots = User.objects.filter(is_bot=True).order_by("username")
    assert [bot.username for bot in bots] == ["bot-basic", "bot-random", "bot-strong"]
    assert not any(bot.has_usable_password() for bot in bots)
