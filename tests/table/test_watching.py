"""Watching without an account: live games listed and open to all, replays shareable."""

import json
import random
import re

import pytest
from django.urls import reverse

from games import services
from games.models import Game
from tests.games_helpers import random_legal_move

pytestmark = pytest.mark.django_db


def _finish(game, rng):
    game.refresh_from_db()
    while game.status == Game.PLAYING:
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=game.seats.get(index=seat).user, seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game.refresh_from_db()


@pytest.fixture
def public_game(ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    return game


def test_live_now_lists_public_games_in_progress_for_visitors(client, public_game, ann, bob):
    private = services.game_create(creator=ann, players=3, private=True)
    for page in (reverse("home"), reverse("play")):
        html = client.get(page).content.decode()
        assert f'href="/games/{public_game.pk}/"' in html and "Watch table" in html
        assert f'href="/games/{private.pk}/"' not in html


def test_a_visitor_watches_a_public_table_and_sees_no_hand(client, public_game):
    html = client.get(reverse("game_table", args=[public_game.pk])).content.decode()
    view = json.loads(re.search(r'<script id="game-view"[^>]*>(.*?)</script>', html, re.S)[1])
    assert view["you"] is None and "hand" not in view and view["status"] == "playing"
    log = client.get(reverse("game_log_data", args=[public_game.pk])).json()
    assert log["seq"] == public_game.seq


def test_a_private_table_is_hidden_from_visitors(client, ann):
    private = services.game_create(creator=ann, players=3, private=True)
    assert client.get(reverse("game_table", args=[private.pk])).status_code == 404
    assert client.get(reverse("game_log_data", args=[private.pk])).status_code == 404


def test_the_replay_of_a_public_game_is_shareable_with_its_log(client, public_game):
    _finish(public_game, random.Random(4))
    assert client.get(reverse("game_replay", args=[public_game.pk])).status_code == 200
    data = client.get(reverse("game_replay_data", args=[public_game.pk])).json()
    assert len(data["views"]) == public_game.seq + 1
    assert {line["seq"] for line in data["log"]} == set(range(1, public_game.seq + 1))
    assert data["log"][-1]["text"].startswith("The game is over")


def test_replay_data_comes_in_pages_with_their_lines(client, public_game, settings):
    _finish(public_game, random.Random(4))
    settings.BLAZE_REPLAY_PAGE_SIZE = 10
    first = client.get(reverse("game_replay_data", args=[public_game.pk])).json()
    second = client.get(reverse("game_replay_data", args=[public_game.pk]) + "?start=10").json()
    assert first["next"] == 10 and len(first["views"]) == 10
    # the page's moves are seq 0…9: their lines are numbered 1…10
    assert {line["seq"] for line in first["log"]} == set(range(1, 11))
    assert min(line["seq"] for line in second["log"]) == 11


def test_the_rules_page_explains_the_game_with_drawn_cards(client):
    html = client.get(reverse("rules")).content.decode()
    for words in ("Firebird", "trump", "Pass", "Bets", "feather"):
        assert words in html
    assert html.count('class="card card--') >= 8
