"""What you must act on is on screen at every decision, in Chromium against a real uvicorn:
on a laptop (1280x800) with the first-game tips open, and on a phone (390x844) at a table
of five, the prompt, the hand, the move buttons and the cards on the table are all in the
viewport as the page stands (no scrolling to find them), the docked hand covers none of
the table's cards, and the round summary shows in view until the next move is played."""

import re
import time

import pytest

from tests.e2e.play import (
    WAIT_FOR_TURN_OR_END,
    play_one_move,
    shots_dir,
    wait_for_move_to_land,
)

pytestmark = pytest.mark.django_db(transaction=True)

GAME_SECONDS = 300  # a guard against a stuck game, not a speed bound
MAX_MOVES = 400

# The elements of `sel` not wholly inside the viewport or, where `area` is given, covered
# at their centre or a corner by something outside that area (the dock, a sticky bar; a
# rejection card lying on its challenge card is no cover).
ON_SCREEN = """([sel, area]) => [...document.querySelectorAll(sel)].filter((n) => {
  const r = n.getBoundingClientRect();
  if (r.width === 0) return false;
  const inside = r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 0.5
    && r.right <= innerWidth + 0.5;
  if (!inside) return true;
  if (!area) return false;
  const box = n.closest(area);
  const points = [[r.left + r.width / 2, r.top + r.height / 2], [r.left + 2, r.top + 2],
                  [r.right - 2, r.bottom - 2]];
  return points.some(([x, y]) => { const t = document.elementFromPoint(x, y);
    return !(t && (box.contains(t) || t.contains(box))); });
}).map((n) => n.id || n.dataset.card || n.dataset.action || n.className)"""


def _check_decision(page, where: str):
    """Nothing to act on is off screen or covered. Looked at again, up to four times, once
    the page has settled (no animation, no scrolling): a view arriving mid-check re-renders
    the hand under it, and a smooth scroll moves it; a real defect stays."""
    off = _off_screen(page)
    for _ in range(4):
        if not off:
            break
        page.wait_for_timeout(400)
        page.wait_for_function(SETTLED)
        off = _off_screen(page)
    if off:
        page.screenshot(path=shots_dir() / f"layout-{where.split(',')[0]}.png")
    assert not off, f"{where}: off screen or covered: {off}"


# No animation running and the page not scrolling (two frames at the same scroll offset).
SETTLED = """() => new Promise((done) => {
  const y = scrollY;
  requestAnimationFrame(() => requestAnimationFrame(() => done(
    scrollY === y && document.getAnimations().every((a) => a.playState !== 'running'))));
})"""


def _off_screen(page) -> dict:
    off = {}
    for name, sel, area in (
            ("prompt", "#prompt", "#prompt"),
            ("hand", "#hand button[data-card]", "button"),
            ("actions", "#actions [data-action]", "[data-action]"),
            ("table cards", "#challenge .card", "#challenge"),
            ("trump", "#trump .card", "#trump")):
        bad = page.evaluate(ON_SCREEN, [sel, area])
        if bad:
            off[name] = bad
    return off


def _play_whole_game(page, base, players: int, viewport: str) -> dict:
    page.goto(base + "/")
    page.select_option("#quick-players", str(players))
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
    if viewport.startswith("1280"):  # a newcomer's default: the tips open
        assert page.locator("#tips").evaluate("(t) => t.open && !t.hidden")
    checked, summaries, moves = 0, 0, 0
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, f"no final ranking after {moves} moves"
        page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
        if page.locator("#ranking").is_visible():
            break
        # the board's motion settles: no card still flying over the table or the hand
        page.wait_for_function("() => document.getAnimations().every("
                               "(a) => a.playState !== 'running')")
        where = f"{viewport}, decision {moves} ({page.locator('#prompt').text_content()!r})"
        _check_decision(page, where)
        checked += 1
        summary = page.locator("#round-summary")
        if summary.is_visible():
            if not summaries:
                page.screenshot(path=shots_dir() / f"layout-summary-{viewport.split()[0]}.png")
            summaries += 1
            assert page.evaluate(ON_SCREEN, ["#round-summary h2", "#round-summary"]) == [], \
                f"{where}: the round summary is out of view"
        seq = int(page.locator("#table").get_attribute("data-seq"))
        had_summary = summary.is_visible()
        play_one_move(page)
        moves += 1
        assert moves < MAX_MOVES
        wait_for_move_to_land(page, seq)
        if had_summary:  # play dismisses it
            assert not summary.is_visible(), f"{where}: the round summary stays after a move"
    # the final ranking is brought into view
    assert page.evaluate(ON_SCREEN, ["#ranking-title", None]) == []
    return {"decisions": checked, "summaries": summaries}


def test_a_laptop_with_the_tips_open_shows_everything_at_every_decision(browser, live_asgi):
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        page.goto(live_asgi.url + "/")
        seen = _play_whole_game(page, live_asgi.url, 4, "1280x800 tips open")
    finally:
        context.close()
    assert seen["decisions"] > 10 and seen["summaries"] >= 1, seen


def test_a_phone_at_a_table_of_five_never_covers_the_cards_on_the_table(browser, live_asgi):
    context = browser.new_context(viewport={"width": 390, "height": 844}, has_touch=True,
                                  is_mobile=True)
    page = context.new_page()
    page.set_default_timeout(15_000)
    try:
        seen = _play_whole_game(page, live_asgi.url, 5, "390x844 five players")
    finally:
        context.close()
    assert seen["decisions"] > 10 and seen["summaries"] >= 1, seen
