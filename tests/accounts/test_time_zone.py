from zoneinfo import ZoneInfo

import pytest

from accounts.services import api_token_create


@pytest.mark.django_db
def test_pages_show_times_in_the_players_own_time_zone(client, ann):
    ann.timezone = "Asia/Tokyo"
    ann.save()
    token, _ = api_token_create(user=ann, name="laptop")
    created = token.created.astimezone(ZoneInfo("Asia/Tokyo"))
    client.force_login(ann)
    page = client.get("/account/tokens/").content.decode()
    assert "Created (Asia/Tokyo)" in page
    assert created.strftime("%Y-%m-%d %H:%M") in page


@pytest.mark.django_db
def test_anonymous_pages_use_utc(client):
    from django.utils import timezone

    client.get("/")
    assert timezone.get_current_timezone_name() == "UTC"
