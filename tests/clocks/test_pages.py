"""The vacation page, deadlines in the viewer's time zone, the table page's clock data."""

from datetime import UTC, date, datetime

import pytest
import time_machine
from django.template import Context, Template

from clocks import vacations
from clocks.models import Vacation

T0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)


@pytest.fixture
def clock():
    with time_machine.travel(T0, tick=False) as traveller:
        yield traveller


def test_deadlines_read_in_the_viewers_time_zone():
    tpl = Template("{% load clocks %}{{ d|in_timezone:tz }} | {{ s|duration }} | "
                   "{{ t|duration }} | {{ m|duration }}")
    out = tpl.render(Context({"d": "2026-03-05T12:00:00+00:00", "tz": "Europe/Berlin",
                              "s": 2 * 86400 + 3 * 3600, "t": 4 * 3600 + 5 * 60, "m": 187}))
    assert out == "Thu 5 Mar 2026, 13:00 CET | 2d 3h | 4h 05m | 3:07"
    summer = Template("{% load clocks %}{{ d|in_timezone:'America/New_York' }}").render(
        Context({"d": datetime(2026, 7, 1, 12, tzinfo=UTC)}))
    assert summer == "Wed 1 Jul 2026, 08:00 EDT"


@pytest.mark.django_db
def test_vacation_page_takes_and_refuses_vacations(clock, ann, client):
    client.force_login(ann)
    page = client.get("/account/vacation/")
    assert page.status_code == 200 and b"20 of 20 vacation days left in 2026" in page.content
    resp = client.post("/account/vacation/", {"first_day": "2026-04-01",
                                              "last_day": "2026-04-10"})
    assert resp.status_code == 302
    v = Vacation.objects.get(user=ann)
    assert (v.start, v.end) == (datetime(2026, 4, 1, tzinfo=UTC), datetime(2026, 4, 11,
                                                                              tzinfo=UTC))
    assert b"10 of 20 vacation days left" in client.get("/account/vacation/").content
    refused = client.post("/account/vacation/", {"first_day": "2026-05-01",
                                                 "last_day": "2026-05-11"})
    assert refused.status_code == 400
    assert b"needs 11 days of 2026 but only 10 of the 20" in refused.content
    backwards = client.post("/account/vacation/", {"first_day": "2026-05-03",
                                                   "last_day": "2026-05-01"})
    assert backwards.status_code == 400 and b"cannot come before" in backwards.content
    soon = vacations.vacation_create(user=ann, first_day=date(2026, 3, 3),
                                    last_day=date(2026, 3, 3))
    clock.move_to(datetime(2026, 3, 3, 1, tzinfo=UTC))
    resp = client.post(f"/account/vacation/{soon.pk}/cancel/", follow=True)
    assert b"has begun" in resp.content and Vacation.objects.filter(pk=soon.pk).exists()
    resp = client.post(f"/account/vacation/{v.pk}/cancel/", follow=True)
    assert b"Vacation cancelled." in resp.content and not Vacation.objects.filter(pk=v.pk)


@pytest.mark.django_db
def test_vacation_page_needs_a_login(client):
    assert client.get("/account/vacation/").status_code == 302


@pytest.mark.django_db
def test_table_page_has_the_viewers_time_zone_and_the_api_view_carries_clocks(
        clock, ann, bob, cat, client):
    from tests.clocks.helpers import started_game
    from tests.games_helpers import api_get

    ann.timezone = "Europe/Berlin"
    ann.save(update_fields=["timezone"])
    game = started_game([ann, bob, cat], {"kind": "correspondence", "days": 1})
    client.force_login(ann)
    page = client.get(f"/games/{game.pk}/").content.decode()
    assert 'data-timezone="Europe/Berlin"' in page
    assert "js/table/table.js" in page
    clocks = api_get(client, f"/api/v1/games/{game.pk}").json()["clocks"]
    assert [c["seat"] for c in clocks] == [0, 1, 2]
    running = [c for c in clocks if c["running"]]
    assert [c["seat"] for c in running] == game.waiting_on
    assert running[0]["remaining"] == 86400 and not running[0]["paused"]
    assert datetime.fromisoformat(running[0]["deadline"]) == datetime(2026, 3, 3, 12,
                                                                      tzinfo=UTC)
    assert all(c["deadline"] is None for c in clocks if not c["running"])

