"""The strong bot's review under a replay, in Chromium against a real uvicorn: a player
sees their own decisions, "Show" moves the replay to that position, nothing sticks out
of a 390-px phone, and the page passes axe."""

import pytest

from games import reviews
from games.models import GameReview
from tests.conftest import PASSWORD, make_user
from tests.e2e.play import assert_accessible, shoot
from tests.e2e.test_page_width import WIDER
from tests.ratings.factories import finished_game

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("lang", ["en-GB", "ja-JP"])
def test_a_player_reads_the_review_and_jumps_to_a_decision(browser, live_asgi, eager_tasks,
                                                           settings, lang):
    settings.BLAZE_REVIEW_ITERATIONS = settings.BLAZE_REVIEW_GAME_ITERATIONS = 100
    settings.BLAZE_REVIEW_MAX_DECISIONS = 2000
    settings.BLAZE_REVIEW_WITHOUT_WORKER = True  # tasks run in-process here
    people = [make_user(name) for name in ("maximilian_longname", "bob", "cat")]
    game = finished_game(people, seed=9)
    game.private = True
    game.save(update_fields=["private"])
    # outside a transaction the task is queued at once, and runs in-process
    reviews.review_request(game=game, seats=list(game.seats.select_related("user")))
    review = GameReview.objects.get(game=game)
    assert review.status == GameReview.DONE
    mine = [d for d in review.decisions
            if d["seat"] == 0 and d["p_best"] - d["p_played"] >= settings.BLAZE_REVIEW_MARGIN]
    assert mine, "random play leaves the bot something to say"

    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_asgi.url
    page.goto(base + "/account/login/")
    page.locator("main input[name=login]").fill(people[0].username)
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(base + "/")
    page.goto(base + f"/games/{game.pk}/replay/")
    page.wait_for_function("() => document.querySelector('#replay').dataset.ply === '0'")
    assert page.locator("#review [data-goto]").count() == len(mine)
    page.locator("#review [data-goto]").nth(len(mine) - 1).click()
    page.wait_for_function(
        f"() => document.querySelector('#replay').dataset.ply === '{mine[-1]['seq']}'")
    seen = page.evaluate(WIDER)
    assert seen["width"] <= 390 and not seen["out"], seen
    shoot(page, f"review-{lang}")
    assert_accessible(page, f"replay with its review ({lang})")
    context.close()
