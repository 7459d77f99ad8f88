import re

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse

from accounts.models import User

pytestmark = pytest.mark.django_db


def _link(body: str) -> str:
    return re.search(r"https?://[^/\s]+(/\S+)", body).group(1)


def _signup(client, **overrides):
    data = {
        "username": "fay",
        "email": "fay@example.com",
        "password1": "fiery-bird-42-feathers",
        "password2": "fiery-bird-42-feathers",
    }
    data.update(overrides)
    return client.post(reverse("account_signup"), data)


def test_signup_sends_verification_email_and_link_verifies(client):
    response = _signup(client)
    assert response.status_code == 302
    assert response.url == reverse("account_email_verification_sent")
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == ["fay@example.com"]

    # Unverified: logging in only resends the verification mail.
    client.post(reverse("account_login"), {"login": "fay", "password": "fiery-bird-42-feathers"})
    assert "_auth_user_id" not in client.session

    confirm = _link(mail.outbox[0].body)
    assert client.get(confirm).status_code == 200
    client.post(confirm)
    response = client.post(
        reverse("account_login"), {"login": "fay@example.com", "password": "fiery-bird-42-feathers"}
    )
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == User.objects.get(username="fay").pk


def test_confirming_in_the_browser_that_signed_up_logs_you_in(client):
    _signup(client)
    confirm = _link(mail.outbox[0].body)
    response = client.post(confirm)
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == User.objects.get(username="fay").pk
    assert client.get("/").context["user"].username == "fay"


def test_a_confirmation_link_opened_in_another_browser_only_confirms(client):
    _signup(client)
    confirm = _link(mail.outbox[0].body)
    other = Client()
    other.post(confirm)
    assert "_auth_user_id" not in other.session
    assert User.objects.get(username="fay").emailaddress_set.get().verified


def test_new_user_gets_blaze_defaults(client):
    _signup(client)
    fay = User.objects.get(username="fay")
    assert (fay.is_bot, fay.timezone, fay.email_on_turn) == (False, "UTC", "immediate")


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"email": "not-an-email"}, "Enter a valid email address."),
        ({"password2": "something-else-entirely"}, "You must type the same password each time."),
        ({"password1": "123", "password2": "123"}, "This password is too short."),
        ({"username": ""}, "This field is required."),
    ],
)
def test_bad_signup_data_is_rejected_with_a_message(client, overrides, message):
    response = _signup(client, **overrides)
    assert response.status_code == 200
    assert message in response.content.decode()
    assert not User.objects.filter(username="fay").exists()
    assert mail.outbox == []


def test_signup_with_a_taken_username_is_rejected(client, ann):
    response = _signup(client, username="ann")
    assert "A user with that username already exists." in response.content.decode()


def test_signup_cannot_take_a_bot_name(client):
    response = _signup(client, username="bot-sneaky")
    assert "are for bots" in response.content.decode()
    assert not User.objects.filter(username="bot-sneaky").exists()


def test_login_with_username_and_logout(client, ann, password):
    response = client.post(reverse("account_login"), {"login": "ann", "password": password})
    assert response.status_code == 302
    assert int(client.session["_auth_user_id"]) == ann.pk
    client.post(reverse("account_logout"))
    assert "_auth_user_id" not in client.session


def test_login_is_rate_limited_after_repeated_failures(client, ann, password):
    for _ in range(5):
        response = client.post(reverse("account_login"), {"login": "ann", "password": "wrong"})
        assert response.status_code == 200
    response = client.post(reverse("account_login"), {"login": "ann", "password": password})
    assert "Too many failed login attempts" in response.content.decode()
    assert "_auth_user_id" not in client.session


def test_password_reset_via_emailed_link(client, ann):
    client.post(reverse("account_reset_password"), {"email": "ann@example.com"})
    assert len(mail.outbox) == 1
    response = client.get(_link(mail.outbox[0].body), follow=True)
    set_password_url = response.redirect_chain[-1][0]
    response = client.post(
        set_password_url, {"password1": "a-brand-new-secret-9", "password2": "a-brand-new-secret-9"}
    )
    assert response.status_code == 302
    client.logout()
    client.post(reverse("account_login"), {"login": "ann", "password": "a-brand-new-secret-9"})
    assert int(client.session["_auth_user_id"]) == ann.pk
