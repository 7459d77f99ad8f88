"""Rated tables follow one rule, and the forms say it: bots are rated like everyone, so
they may sit at rated tables, in the lobby and in tournaments alike."""

import pytest
from django.urls import reverse

from games.models import Game
from tests.tournaments.conftest import make_players, make_tournament, register_all
from tournaments.forms import TournamentForm
from tournaments.selectors import tournament_rounds
from tournaments.services import tournament_start

pytestmark = pytest.mark.django_db


def test_the_lobby_says_what_a_rated_table_with_bots_does(ann_client):
    page = ann_client.get(reverse("play")).content.decode()
    assert "rated (bots at the table are rated too)" in page and "no bots" not in page
    ann_client.post(reverse("game_create"), {"players": "3", "bots": ["basic", "strong"],
                                             "rated": "1"})
    game = Game.objects.get()
    assert game.rated and game.status == Game.PLAYING
    assert sorted(filter(None, game.seats.values_list("bot_level", flat=True))) == [
        "basic", "strong"]


def test_a_rated_tournament_fills_short_tables_with_rated_bots(ann):
    form = TournamentForm()
    assert "rated too" in str(form["rated"].label)
    assert "not rated" not in str(form["allow_bots"].label)
    cup = make_tournament(ann, rated=True, allow_bots=True)
    register_all(cup, make_players("p", 6))
    tournament_start(tournament_id=cup.pk, user=ann)
    (entry,) = tournament_rounds(cup)
    assert [len(t.seat_list) for t in entry.tables] == [4, 4]
    assert all(t.game.rated for t in entry.tables)
