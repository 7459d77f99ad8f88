"""A tournament's page costs the same queries however many play, and stays small with 200
players: a page of the standings, the viewer's own place, and the tables of one round."""

import random

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ops.seed import tournament_create, users_create
from tournaments.selectors import STANDINGS_PAGE, tournament_standings

pytestmark = pytest.mark.django_db


def _tournament(players: int, seed: int, **kwargs):
    rng = random.Random(seed)
    ids = users_create(players, rng)[-players:]
    return tournament_create(sorted(ids), rng, **kwargs)[0]


def _get(client, url: str):
    client.get(url)  # warm-up: compiled templates, cached lookups
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, url
    return len(ctx.captured_queries), response.content.decode()


@pytest.mark.parametrize("query", ["", "?page=2", "?round=1"])
def test_the_page_costs_the_same_queries_with_three_times_the_players(client, query):
    small = _tournament(12, 1, running=True)
    large = _tournament(36, 2, running=True)
    client.force_login(get_user_model().objects.get(pk=large.organiser_id))
    assert _get(client, f"/tournaments/{small.pk}/{query}")[0] == \
        _get(client, f"/tournaments/{large.pk}/{query}")[0]


def test_two_hundred_players_make_a_page_under_200_kb_with_every_place_reachable(client):
    t = _tournament(200, 3, running=True)
    standing = tournament_standings(t)
    last = standing[-1]
    client.force_login(last.user)
    queries, page = _get(client, f"/tournaments/{t.pk}/")
    assert len(page.encode()) < 200_000
    assert "Page 1 of 4" in page and 'rel="next"' in page
    assert f"You are in place {last.rank} with" in page  # the viewer's own line
    assert "Round 3" in page and 'href="?round=1#round-1"' in page and "Round 1<" not in page
    rows = page[page.index('id="standings"'):page.index('id="round-3"')].count("<tr>")
    assert rows == STANDINGS_PAGE + 1  # and the head
    queries_last, last_page = _get(client, f"/tournaments/{t.pk}/?page=4")
    assert queries_last == queries
    assert f">{last.user.username}<" in last_page.replace("</td>", "<")
    assert "You are in place" not in last_page  # the viewer's row is on this page
    _, first_round = _get(client, f"/tournaments/{t.pk}/?round=1")
    assert "Round 1<" in first_round and "Round 3<" not in first_round


def test_before_the_first_round_the_registrations_are_listed_a_page_at_a_time(client):
    from tournaments.models import Registration, Tournament, TournamentRound, TournamentTable

    t = _tournament(60, 4, rounds=1)  # its one round taken away: still registering
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.REGISTERING, current_round=0)
    TournamentTable.objects.filter(round__tournament=t).delete()
    TournamentRound.objects.filter(tournament=t).delete()
    def listed(page):
        return page[page.index('id="registrations"'):].count("<li>")

    _, page = _get(client, f"/tournaments/{t.pk}/")
    assert "Players (60)" in page and "Page 1 of 2" in page
    assert listed(page) == STANDINGS_PAGE
    _, second = _get(client, f"/tournaments/{t.pk}/?page=2")
    assert listed(second) == 60 - STANDINGS_PAGE and '<ol start="51">' in second
    assert Registration.objects.filter(tournament=t).count() == 60
