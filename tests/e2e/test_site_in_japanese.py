"""A Japanese speaker signs up and plays with the whole site in Japanese, in Chromium
against a real uvicorn: the browser asks for Japanese (Accept-Language), nothing else."""

import re
import time

import pytest

from accounts.models import User
from tests.e2e.play import WAIT_FOR_TURN_OR_END, play_one_move, shoot, wait_for_move_to_land
from tests.i18n.english import english_left

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "hi-no-tori-no-hane-42"
OUR_MOVES = 8            # enough to see every kind of turn's words; not a whole game
SECONDS = 120


@pytest.fixture
def ja_page(browser):
    context = browser.new_context(locale="ja-JP", viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.set_default_timeout(15_000)
    yield page
    context.close()


def _no_english(page, where: str):
    assert page.locator("html").get_attribute("lang") == "ja", where
    # bots are seated under names ("Basic bot"): names, like players' names
    left = english_left(page.content().replace("yuki@example.com", ""), "ja",
                        {"yuki", "basic", "random", "strong"})
    assert not left, f"{where}: English left: {left}"


def test_a_japanese_speaker_signs_up_and_plays_in_japanese(ja_page, live_asgi):
    page, base = ja_page, live_asgi.url
    page.goto(base + "/account/signup/")
    _no_english(page, "sign-up page")
    page.locator("main input[name=username]").fill("yuki")
    page.locator("main input[name=email]").fill("yuki@example.com")
    page.locator("main input[name=password1]").fill(PASSWORD)
    page.locator("main input[name=password2]").fill(PASSWORD)
    page.locator("main form button[type=submit]").click()
    page.wait_for_url("**/confirm-email/")
    _no_english(page, "check your email page")
    mails = "".join(p.read_text() for p in sorted(live_asgi.mail_dir.iterdir()))
    link = re.search(r"https?://\S+/confirm-email/\S+/", mails)
    assert link, mails
    assert re.search(r"[\u3040-\u30ff]", mails), "the confirmation email is not in Japanese"
    page.goto(link.group(0))
    page.locator("main form button[type=submit]").click()
    page.wait_for_url(base + "/")  # confirming in the browser that signed up logs in
    _no_english(page, "home page, signed in")
    assert User.objects.get(username="yuki").language == "ja"

    page.goto(base + "/play/")
    _no_english(page, "lobby")
    form = page.locator("#create-table")
    form.locator("#players").select_option("3")
    form.locator("#bot-1").select_option("basic")
    form.locator("#bot-2").select_option("random")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))

    moves, deadline = 0, time.monotonic() + SECONDS
    while moves < OUR_MOVES:
        assert time.monotonic() < deadline, f"only {moves} moves in {SECONDS} s"
        page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
        if page.locator("#ranking").is_visible():
            break
        _no_english(page, f"table before our move {moves + 1}")
        assert re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", page.title()), page.title()
        seq = int(page.locator("#table").get_attribute("data-seq"))
        play_one_move(page)
        moves += 1
        wait_for_move_to_land(page, seq)
        assert not page.locator("#error").is_visible(), page.locator("#error").text_content()
    shoot(page, "table-ja")
    _no_english(page, "table after our moves")
    assert moves >= 3
