import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_home_page_explains_blaze_and_offers_a_game_against_bots(client):
    page = client.get("/").content.decode()
    assert "3 to 5 players" in page
    assert 'action="/play/bots/"' in page and "Play against bots" in page
    assert 'href="/play/"' in page and 'href="/rules/"' in page
    assert 'class="skip-link"' in page
    assert "card--F" in page and "firebird.svg" in page  # the Firebird card, drawn


def test_nav_offers_signup_to_visitors_and_profile_to_players(client, ann):
    assert reverse("account_signup") in client.get("/").content.decode()
    client.force_login(ann)
    page = client.get("/").content.decode()
    assert reverse("profile", args=["ann"]) in page
    assert reverse("account_signup") not in page


def test_allauth_pages_use_the_site_layout(client):
    page = client.get(reverse("account_signup")).content.decode()
    assert "site.css" in page and 'id="main"' in page
    assert '<label for="id_username"' in page


@pytest.mark.parametrize("url", ["/play/", "/games/", "/tournaments/"])
def test_placeholder_pages_render(client, url):
    assert client.get(url).status_code == 200


def test_profile_page_shows_the_player(client, ann):
    response = client.get(reverse("profile", args=["ann"]))
    assert response.status_code == 200
    assert "ann" in response.content.decode()
    assert client.get(reverse("profile", args=["nobody"])).status_code == 404


def test_settings_page_saves_time_zone_and_notifications(ann_client, ann):
    response = ann_client.post(
        reverse("account_settings"), {"timezone": "Europe/Berlin", "email_on_turn": "digest"}
    )
    assert response.status_code == 302
    ann.refresh_from_db()
    assert (ann.timezone, ann.email_on_turn) == ("Europe/Berlin", "digest")


def test_settings_page_rejects_an_unknown_time_zone(ann_client, ann):
    response = ann_client.post(
        reverse("account_settings"), {"timezone": "Mars/Olympus", "email_on_turn": "never"}
    )
    assert response.status_code == 200
    ann.refresh_from_db()
    assert ann.timezone == "UTC"


def test_account_pages_need_login(client):
    for name in ["account_settings", "account_tokens"]:
        response = client.get(reverse(name))
        assert response.status_code == 302
        assert response.url.startswith(reverse("account_login"))


def test_openapi_schema_and_docs_are_served(client):
    schema = client.get("/api/v1/openapi.json").json()
    assert schema["info"]["title"] == "Blaze API"
    assert "/api/v1/me" in schema["paths"]
    assert client.get("/api/v1/docs").status_code == 200

