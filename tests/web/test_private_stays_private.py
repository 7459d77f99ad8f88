"""A private game is known to its seats alone: it is never listed or counted on public
profiles, head to head, figures or the leaderboard for anyone else, and every refusal
about it is "no such game" (404) to an outsider, for writes as for reads."""

import pytest
from django.urls import reverse

from accounts.services import bots_create
from games import services
from games.models import Game
from ratings.services import game_finished_record
from tests.games_helpers import api_post, bearer
from tests.ratings.factories import finished_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def private_and_public(ann, bob, cat):
    bots_create()
    public = finished_game([ann, bob, cat], handmade_game=True, minutes=0)
    private = finished_game([ann, bob, cat], handmade_game=True, minutes=10)
    Game.objects.filter(pk=private.pk).update(private=True, invite_code="secret-code")
    for game in (public, private):
        game_finished_record(game_id=game.pk)
    return public, private


def _page(client, name, *args, **query):
    return client.get(reverse(name, args=args), query).content.decode()


def test_profiles_list_a_private_game_only_to_its_seats(client, private_and_public, ann, eve):
    public, private = private_and_public
    for viewer in (None, eve):
        if viewer:
            client.force_login(viewer)
        page = _page(client, "profile", "cat")
        assert f"/games/{public.pk}/" in page
        assert f"/games/{private.pk}/" not in page
        versus = _page(client, "profile", "cat", vs="ann")
        assert "1 game together" in versus and f"/games/{private.pk}/" not in versus
    client.force_login(ann)  # a seat of the private game sees it listed
    assert f"/games/{private.pk}/" in _page(client, "profile", "cat")
    assert "2 games together" in _page(client, "profile", "cat", vs="ann")


def test_figures_and_rating_chart_count_no_private_game_for_outsiders(private_and_public, eve,
                                                                      cat, ann):
    from ratings.stats import head_to_head, player_stats, rating_history

    assert player_stats(cat, eve)["total"]["games"] == 1
    assert player_stats(cat, ann)["total"]["games"] == 2
    assert len(rating_history(cat, None)) == 2  # the rating before, and after one game
    assert head_to_head(cat, ann, None)["games"] == 1


def test_the_leaderboard_counts_public_games_only(client, private_and_public):
    page = _page(client, "leaderboard", min="0")
    row = page[page.index(">cat<"):]
    row = row[:row.index("</tr>")]
    assert "<td>1</td>" in row and "<td>2</td>" not in row


def _private_table(ann, *, started: bool, bob=None, cat=None) -> Game:
    game = services.game_create(creator=ann, players=3, private=True)
    if started:
        for user in (bob, cat):
            services.game_join(game_id=game.pk, user=user, invite_code=game.invite_code)
    return Game.objects.get(pk=game.pk)


@pytest.mark.parametrize("started", [False, True])
def test_every_api_write_about_a_private_game_is_404_to_an_outsider(client, ann, bob, cat,
                                                                     eve, started):
    game = _private_table(ann, started=started, bob=bob, cat=cat)
    base = f"/api/v1/games/{game.pk}"
    writes = [(f"{base}/join", {}), (f"{base}/leave", {}), (f"{base}/bots", {"level": "basic"}),
              (f"{base}/moves", {"seq": game.seq, "move": {"pass": True}}),
              (f"{base}/resign", {})]
    auth = bearer(eve)
    missing = api_post(client, "/api/v1/games/999999/join", {}, auth).json()
    for url, body in writes:
        answer = api_post(client, url, body, auth)
        assert answer.status_code == 404, (url, answer.content)
        assert answer.json() == missing == {"error": "no such game"}
    assert not game.seats.filter(user=eve).exists()


def test_every_page_write_about_a_private_game_is_404_to_an_outsider(client, ann, bob, cat,
                                                                      eve):
    waiting = _private_table(ann, started=False)
    finished = _private_table(ann, started=True, bob=bob, cat=cat)
    Game.objects.filter(pk=finished.pk).update(status=Game.FINISHED)
    client.force_login(eve)
    for name, game in [("game_join", waiting), ("game_leave", waiting),
                       ("game_add_bot", waiting), ("game_join", finished),
                       ("game_again", finished)]:
        assert client.post(reverse(name, args=[game.pk])).status_code == 404, name
    assert not Game.objects.filter(rematch_of=finished).exists()


def test_an_invite_holder_still_hears_why_a_started_table_refuses(client, ann, bob, cat, eve):
    game = _private_table(ann, started=True, bob=bob, cat=cat)
    answer = api_post(client, f"/api/v1/games/{game.pk}/join?invite={game.invite_code}", {},
                      bearer(eve))
    assert answer.status_code == 403 and "already started" in answer.json()["error"]
