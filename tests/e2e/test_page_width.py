"""No page scrolls sideways on a 390-px phone, in Chromium against a real uvicorn: the
tournaments list and a tournament's standings, the profile's figures, the leaderboard,
the table and the other pages, in English, Japanese and Spanish, with long names."""

import pytest
from django.utils import timezone

from accounts.services import bots_create
from ratings.services import game_finished_record, game_stats_record
from tests.conftest import PASSWORD, make_user
from tests.ratings.factories import finished_game
from tournaments.services import tournament_create, tournament_register, tournament_start

pytestmark = pytest.mark.django_db(transaction=True)

# what sticks out: the page's own width, and any element wider than the screen's edge
# that is not inside a box scrolling on its own
WIDER = """() => {
  const out = [...document.querySelectorAll('body *')].filter((n) => {
    const r = n.getBoundingClientRect();
    if (r.width === 0 || r.right <= innerWidth + 1) return false;
    for (let p = n.parentElement; p; p = p.parentElement) {
      const o = getComputedStyle(p).overflowX;
      if ((o === 'auto' || o === 'scroll' || o === 'hidden') && p !== document.body
          && p !== document.documentElement) return false;
    }
    return true;
  }).slice(0, 5).map((n) => `${n.tagName.toLowerCase()}.${n.className} `
                           + `${Math.round(n.getBoundingClientRect().right)}px`);
  return {width: document.documentElement.scrollWidth, out};
}"""


def _world():
    """Players with long names, finished rated games, a running tournament."""
    bots_create()
    people = [make_user(name) for name in (
        "maximilian_longname", "alexandra_wordsworth", "bartholomew_quince", "cat")]
    for k in range(3):
        game = finished_game([*people[:3], "bot:strong"], seed=k, minutes=k)
        game_finished_record(game_id=game.pk)
        game_stats_record(game_id=game.pk)
    now = timezone.now()
    cup = tournament_create(
        organiser=people[0], name="The Grand Autumn Championship of Blaze Players 2026",
        registration_opens=now - timezone.timedelta(hours=1),
        registration_closes=now + timezone.timedelta(hours=1), allow_bots=True)
    for user in people:
        tournament_register(tournament_id=cup.pk, user=user)
    tournament_start(tournament_id=cup.pk, user=people[0])
    tournament_create(organiser=people[1], name="Winter Cup for Very Patient People",
                      registration_opens=now - timezone.timedelta(hours=1),
                      registration_closes=now + timezone.timedelta(days=3))
    return people, cup


@pytest.mark.parametrize("lang", ["en-GB", "ja-JP", "es-ES"])
def test_no_page_is_wider_than_a_390px_phone(browser, live_asgi, eager_tasks, lang):
    people, cup = _world()
    game = finished_game([*people[:3]], seed=9)
    context = browser.new_context(viewport={"width": 390, "height": 844}, locale=lang)
    page = context.new_page()
    page.set_default_timeout(15_000)
    base = live_asgi.url
    page.goto(base + "/account/login/")
    page.locator("main input[name=login]").fill(people[0].username)
    page.locator("main input[name=password]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(base + "/")
    wide = {}
    for path in ("/", "/play/", "/games/", "/tournaments/", f"/tournaments/{cup.pk}/",
                 "/tournaments/new/", "/leaderboard/?min=0",
                 f"/u/{people[0].username}/", "/u/bot-strong/", "/rules/",
                 f"/games/{game.pk}/", f"/games/{game.pk}/replay/", "/account/settings/",
                 "/notifications/settings/"):
        page.goto(base + path)
        page.wait_for_load_state("networkidle")
        seen = page.evaluate(WIDER)
        if seen["width"] > 390 or seen["out"]:
            wide[path] = seen
    context.close()
    assert not wide, wide
