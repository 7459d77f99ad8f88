"""Table talk in Chromium: a phrase tapped on a phone reaches the other player's desktop
screen in their language, without a reload; free text stays text; axe finds no serious
issue on the table with its talk panel nor on the friends page."""

import pytest
from django.conf import settings
from django.test import Client

from tests.conftest import make_user
from tests.e2e.play import assert_accessible, shoot
from tests.social.helpers import table

pytestmark = pytest.mark.django_db(transaction=True)


def _signed_in(browser, live_asgi, user, viewport, phone=False):
    client = Client()
    client.force_login(user)
    context = browser.new_context(viewport=viewport, has_touch=phone, is_mobile=phone)
    host = live_asgi.url.split("//")[1].split(":")[0]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "domain": host, "path": "/"}])
    page = context.new_page()
    page.set_default_timeout(15_000)
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    return context, page, errors


def test_a_phrase_tapped_on_a_phone_shows_on_the_other_screen_in_its_language(browser,
                                                                              live_asgi):
    ann = make_user("ann", language="ja")
    bob = make_user("bob", language="es")
    game = table(ann, [bob], players=3, bots=["basic"])
    phone, ann_page, ann_errors = _signed_in(browser, live_asgi, ann,
                                             {"width": 390, "height": 844}, phone=True)
    desk, bob_page, bob_errors = _signed_in(browser, live_asgi, bob,
                                            {"width": 1280, "height": 800})
    try:
        for page in (ann_page, bob_page):
            page.goto(f"{live_asgi.url}/games/{game.pk}/")
            page.wait_for_selector("#talk")
        ann_page.locator("[data-phrase=good_luck]").tap()
        bob_page.wait_for_function(
            "() => document.querySelector('#talk-lines').textContent.includes('¡Buena suerte!')")
        assert "頑張って！" in ann_page.locator("#talk-lines").text_content()

        said = "<b>hola</b> https://example.com"
        bob_page.locator("#talk-text").fill(said)
        bob_page.locator("#talk-form button[type=submit]").click()
        ann_page.wait_for_function(
            "() => document.querySelector('#talk-lines').textContent.includes('hola')")
        lines = ann_page.locator("#talk-lines")
        assert said in lines.text_content()
        assert lines.locator("b").count() == 0 and lines.locator("a").count() == 0

        ann_page.locator("#talk").scroll_into_view_if_needed()
        shoot(ann_page, "table-talk")
        assert_accessible(ann_page, "the table with its talk, on a phone")
        assert_accessible(bob_page, "the table with its talk, on a desktop")
        bob_page.goto(f"{live_asgi.url}/friends/")
        assert_accessible(bob_page, "/friends/")
    finally:
        phone.close()
        desk.close()
    assert not ann_errors and not bob_errors, ann_errors + bob_errors

