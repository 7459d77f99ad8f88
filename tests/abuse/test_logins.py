"""Logins: staff sign in through the site's login (rate limits, two factors), and limits
per address see the client behind a trusted proxy."""

import time

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.totp.internal.auth import (
    TOTP,
    format_hotp_value,
    generate_totp_secret,
    hotp_value,
)
from django.test import Client

from tests.conftest import PASSWORD, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(db):
    return make_user("sam", is_staff=True, is_superuser=True)


def _login(client, login, password=PASSWORD, **extra):
    return client.post("/account/login/", {"login": login, "password": password}, **extra)


def _code(secret: str) -> str:
    return format_hotp_value(hotp_value(secret, int(time.time()) // 30))


def test_the_admin_login_sends_staff_to_the_sites_login(client):
    response = client.get("/admin/login/?next=/admin/")
    assert response.status_code == 302
    assert response["Location"].startswith("/account/login/?next=")
    assert client.get("/admin/").status_code == 302


def test_wrong_passwords_lock_a_staff_login_even_when_the_right_one_follows(client, staff):
    for _ in range(5):
        assert "_auth_user_id" not in client.session
        _login(client, "sam", "wrong-password")
    page = _login(client, "sam")
    assert page.status_code == 200 and "Too many failed login attempts" in page.content.decode()
    assert "_auth_user_id" not in client.session


def test_staff_without_two_factors_are_asked_to_set_them_up_before_the_admin(client, staff):
    _login(client, "sam")
    response = client.get("/admin/")
    assert response.status_code == 302 and response["Location"] == "/account/2fa/totp/activate/"
    # allauth asks for the password once more before it changes the sign-in
    assert client.get("/account/2fa/totp/activate/")["Location"].startswith(
        "/account/reauthenticate/")
    client.post("/account/reauthenticate/?next=/account/2fa/totp/activate/",
                {"password": PASSWORD})
    page = client.get("/account/2fa/totp/activate/")
    assert page.status_code == 200 and "authenticator" in page.content.decode().lower()


def test_players_who_are_not_staff_are_not_let_into_the_admin(client, ann):
    client.force_login(ann)
    assert client.get("/admin/").status_code in (302, 403)
    assert client.get("/admin/accounts/user/").status_code in (302, 403)


def test_staff_with_an_authenticator_give_a_code_after_the_password(client, staff):
    secret = generate_totp_secret()
    TOTP.activate(staff, secret)
    response = _login(client, "sam")
    assert response.status_code == 302 and response["Location"] == "/account/2fa/authenticate/"
    assert "_auth_user_id" not in client.session
    assert client.get("/admin/").status_code == 302  # not in yet
    client.post("/account/2fa/authenticate/", {"code": _code(secret)})
    assert client.session["_auth_user_id"] == str(staff.pk)
    assert client.get("/admin/").status_code == 200
    assert Authenticator.objects.filter(user=staff, type=Authenticator.Type.TOTP).exists()


def test_two_clients_behind_the_proxy_are_limited_apart(settings, ann):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 1
    proxy = {"REMOTE_ADDR": "10.0.0.1"}  # every request arrives from the proxy
    attacker = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.7")
    player = Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.20")
    for i in range(12):
        _login(attacker, f"nobody{i}", "guess")
    _login(attacker, "ann")  # the right password, from the locked-out address
    assert "_auth_user_id" not in attacker.session
    response = _login(player, "ann")
    assert response.status_code == 302 and player.session["_auth_user_id"] == str(ann.pk)


def test_without_the_proxy_setting_everyone_behind_it_shares_one_limit(settings, ann):
    settings.ALLAUTH_TRUSTED_PROXY_COUNT = 0
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    attacker = Client(**proxy, HTTP_X_FORWARDED_FOR="203.0.113.7")
    player = Client(**proxy, HTTP_X_FORWARDED_FOR="198.51.100.20")
    for i in range(12):
        _login(attacker, f"nobody{i}", "guess")
    response = _login(player, "ann")
    assert "_auth_user_id" not in player.session
    assert response.status_code == 429 or "Too many" in response.content.decode()


def test_allauths_429_carries_retry_after_and_the_sites_page(settings):
    settings.ACCOUNT_RATE_LIMITS = {"login": "2/m/ip"}
    client = Client()
    answers = [_login(client, "nobody", "guess") for _ in range(3)]
    assert answers[-1].status_code == 429
    assert int(answers[-1]["Retry-After"]) >= 1
    assert "Slow down a little" in answers[-1].content.decode()
