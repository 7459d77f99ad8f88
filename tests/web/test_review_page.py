"""The replay page shows the strong bot's review: a seat's own decisions to its player,
every seat's once the game is public, in the reader's language; nothing to outsiders of
a private game, nothing before it is made."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from games import reviews
from games.models import GameReview
from tests.services.test_game_review import people_game

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _quick_reviews(settings):
    settings.BLAZE_REVIEW_ITERATIONS = 100
    settings.BLAZE_REVIEW_WITHOUT_WORKER = True  # tasks run in-process here
    settings.BLAZE_REVIEW_GAME_ITERATIONS = 100
    settings.BLAZE_REVIEW_MAX_DECISIONS = 2000  # random play makes long games
    settings.BLAZE_REVIEW_MARGIN = 0.0  # every decision the bot would change is shown


def reviewed(*users, private=False, seed=1):
    game = people_game(*users, seed=seed, private=private)
    assert reviews.review_work(seconds=600) == "done"
    review = GameReview.objects.get(game=game)
    assert {d["seat"] for d in review.decisions} == {0, 1, 2}
    return game, review


def better(decisions, margin=0.0) -> list:
    """The decisions the page shows: the bot rates its choice at least `margin` better."""
    return [d for d in decisions if d["p_best"] - d["p_played"] >= margin]


def rows_for(html: str) -> int:
    return html.count('data-goto="')


def test_a_player_sees_the_better_decisions_of_their_own_seat_in_english_and_japanese(
        client, ann, bob, cat):
    game, review = reviewed(ann, bob, cat, private=True)
    client.force_login(ann)
    ann_seat = game.seats.get(user=ann).index
    mine = [d for d in better(review.decisions) if d["seat"] == ann_seat]
    page = client.get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    section = page[page.index("id=\"review\""):]
    assert "The strong bot's review" in section and "Strong bot's choice" in section
    assert rows_for(page) == len(mine)
    first = mine[0]
    assert f'data-goto="{first["seq"]}"' in page
    assert f'({round(100 * first["p_best"])}%)' in page
    page = client.get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "強いボットの講評" in page and rows_for(page) == len(mine)
    page = client.get(f"/games/{game.pk}/replay/", HTTP_ACCEPT_LANGUAGE="es").content.decode()
    assert "La revisión del bot fuerte" in page


def test_only_decisions_clearly_worse_than_the_bots_choice_are_shown(client, ann, bob, cat,
                                                                     settings):
    game, review = reviewed(ann, bob, cat, seed=2)
    settings.BLAZE_REVIEW_MARGIN = 0.10
    clear = better(review.decisions, 0.10)
    assert len(clear) < len(better(review.decisions))
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert rows_for(page) == len(clear)


def test_a_public_finished_game_shows_every_seats_review_to_anyone(client, ann, bob, cat):
    game, review = reviewed(ann, bob, cat, seed=3)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert rows_for(page) == len(better(review.decisions))


def test_outsiders_of_a_private_game_see_nothing_of_its_review(client, ann, bob, cat, dan):
    game, _review = reviewed(ann, bob, cat, private=True, seed=4)
    client.force_login(dan)
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404
    client.logout()
    assert client.get(f"/games/{game.pk}/replay/").status_code == 404


def test_until_the_review_is_made_the_page_says_so(client, ann, bob, cat):
    game = people_game(ann, bob, cat, seed=5)
    page = client.get(f"/games/{game.pk}/replay/").content.decode()
    assert "has not finished reviewing" in page and rows_for(page) == 0


def test_the_review_on_the_page_costs_the_same_queries_for_short_and_long_games(
        client, ann, bob, cat):
    counts = []
    for seed in (6, 7):
        game, review = reviewed(ann, bob, cat, seed=seed)
        if seed == 6:  # the small size: one decision to show
            GameReview.objects.filter(pk=review.pk).update(decisions=review.decisions[:1])
        with CaptureQueriesContext(connection) as queries:
            page = client.get(f"/games/{game.pk}/replay/").content.decode()
        counts.append((rows_for(page), len(queries)))
    assert counts[0][0] == 1 < counts[1][0]
    assert counts[0][1] == counts[1][1], counts


def test_the_api_gives_the_review_once_made_to_those_who_may_read_it(client, ann, bob, cat,
                                                                     dan):
    from tests.games_helpers import api_get, bearer

    game = people_game(ann, bob, cat, seed=8, private=True)
    url = f"/api/v1/games/{game.pk}/review"
    assert api_get(client, url, bearer(ann)).status_code == 404  # not made yet
    assert reviews.review_work(seconds=600) == "done"
    review = GameReview.objects.get(game=game)
    body = api_get(client, url, bearer(ann)).json()
    ann_seat = game.seats.get(user=ann).index
    assert body["decisions"] == [{
        "seq": d["seq"], "seat": ann_seat,
        "played": {"seat": ann_seat, **{k: v for k, v in d["played"].items() if k != "over"}},
        "best": {"seat": ann_seat, **{k: v for k, v in d["best"].items() if k != "over"}},
        "p_played": d["p_played"], "p_best": d["p_best"],
    } for d in review.decisions if d["seat"] == ann_seat]
    assert body["reviewed"] == review.reviewed and body["iterations"] == review.iterations
    assert api_get(client, url, bearer(dan)).status_code == 404  # an outsider
    assert api_get(client, url).status_code == 401  # the API asks who is asking
