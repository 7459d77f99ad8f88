"""The tournaments list comes a page at a time, in the same number of queries however many
tournaments there are; a bad page number is a 400 with a sentence."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments.models import Tournament
from tournaments.selectors import LIST_PAGE

pytestmark = pytest.mark.django_db


def _tournaments(organiser, count: int, status: str) -> None:
    now = timezone.now()
    Tournament.objects.bulk_create(
        Tournament(name=f"{status} {i}", organiser=organiser, status=status,
                   registration_opens=now, registration_closes=now, starts_at=now,
                   finished=now if status == Tournament.FINISHED else None)
        for i in range(count))


def _queries(client, url: str) -> tuple[int, str]:
    client.get(url)
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_the_list_is_a_page_of_each_section_in_a_fixed_number_of_queries(client, ann):
    for status in (Tournament.REGISTERING, Tournament.RUNNING, Tournament.FINISHED):
        _tournaments(ann, 20, status)
    small, _ = _queries(client, "/tournaments/")
    for status in (Tournament.REGISTERING, Tournament.RUNNING, Tournament.FINISHED):
        _tournaments(ann, 2 * LIST_PAGE, status)
    large, page = _queries(client, "/tournaments/")
    assert large == small
    assert page.count("<tr>") == 3 * (LIST_PAGE + 1)  # a page of each section, headers
    assert 'href="?page=2"' in page
    second = client.get("/tournaments/?page=2").content.decode()
    assert 'href="?page=1"' in second


@pytest.mark.parametrize("page", ["0", "-1", "x", "99999"])
def test_a_bad_page_number_is_refused_with_a_sentence(client, db, page):
    response = client.get(f"/tournaments/?page={page}")
    assert response.status_code == 400
    assert b"page" in response.content and b"whole number" in response.content
