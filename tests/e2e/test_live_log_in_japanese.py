"""A Japanese player's live game log is Japanese as it arrives, without a reload, in
Chromium against a real uvicorn: every line the socket brings during play, and the bots'
names, are in the page's language."""

import re

import pytest

from tests.e2e.play import WAIT_FOR_TURN_OR_END, play_one_move, wait_for_move_to_land

pytestmark = pytest.mark.django_db(transaction=True)
JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")


def test_a_japanese_guests_live_log_lines_are_japanese_without_reload(browser, live_asgi):
    context = browser.new_context(locale="ja-JP", viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(live_asgi.url + "/")
        page.locator("#quick-play button[type=submit]").click()
        page.wait_for_url(re.compile(r"/games/\d+/$"))
        page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
        loaded = page.locator("#log li").count()  # the lines the page came with
        for _ in range(8):
            page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
            if page.locator("#ranking").is_visible():
                break
            seq = int(page.locator("#table").get_attribute("data-seq"))
            play_one_move(page)
            wait_for_move_to_land(page, seq)
        lines = page.locator("#log li").all_text_contents()
        live = lines[loaded:]
        assert len(live) >= 8, lines
        english = [t for t in live if not JAPANESE.search(t)]
        assert not english, f"live lines in English: {english}"
        names = page.locator("#players .player__name").all_text_contents()
        assert names and all(JAPANESE.search(n) for n in names), names  # the bots' names
        assert page.evaluate("performance.getEntriesByType('navigation').length") == 1
    finally:
        context.close()
