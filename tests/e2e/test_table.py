"""The table people enjoy, in Chromium against a real uvicorn: a guest's first game from the
home page on a phone, keyboard play, accessibility (axe-core) and pictures of each stage."""

import re
import time

import pytest

from tests.e2e.play import (
    WAIT_FOR_TURN_OR_END,
    assert_accessible,
    play_one_move,
    shoot,
    stage_of,
    wait_for_move_to_land,
)

pytestmark = pytest.mark.django_db(transaction=True)

GAME_SECONDS = 240       # a whole game, bots included (a guard against a stuck game)
MAX_MOVES = 400

IN_VIEW = """(sel) => [...document.querySelectorAll(sel)].every((n) => {
  const r = n.getBoundingClientRect();
  return r.width > 0 && r.top >= 0 && r.left >= 0
    && r.bottom <= innerHeight && r.right <= innerWidth;
})"""


def _assert_turn_fits_the_phone(page, moves: int):
    """Scrolled to the top, the prompt and every card of the hand are on screen."""
    page.evaluate("window.scrollTo(0, 0)")
    assert page.evaluate(IN_VIEW, "#prompt"), f"turn {moves}: the prompt is off screen"
    cards = page.locator("#hand button[data-card]").count()
    assert page.evaluate(IN_VIEW, "#hand button[data-card]"), \
        f"turn {moves}: a card of the hand ({cards} cards) is off screen"


def test_a_guest_plays_a_whole_game_from_the_home_page_on_a_phone(page, live_asgi):
    base = live_asgi.url
    page.goto(base + "/")
    shoot(page, "home")
    page.get_by_role("button", name="Play against bots").click()  # click 1
    clicks = 1
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
    assert "guest" in page.locator(".nav").text_content()

    seen, moves, first_move_clicks = set(), 0, None
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, f"no final ranking after {moves} moves of ours"
        page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
        if page.locator("#ranking").is_visible():
            break
        _assert_turn_fits_the_phone(page, moves)
        stage = stage_of(page)
        if page.locator("#round-summary").is_visible() and "summary" not in seen:
            seen.add("summary")
            assert "lost the round" in page.locator("#round-summary").text_content()
            shoot(page, "table-round-summary")
            assert_accessible(page, "round summary")
        if stage not in seen:
            seen.add(stage)
            shoot(page, f"table-{stage}")
            assert_accessible(page, f"table, {stage}")
        seq = int(page.locator("#table").get_attribute("data-seq"))
        if first_move_clicks is None and stage == "reject" and \
                page.locator("#actions [data-action=pass]").count():
            page.locator("#actions [data-action=pass]").click()  # the fewest clicks
            action, used = "pass", 1
        else:
            action, used = play_one_move(page)
        if first_move_clicks is None:
            first_move_clicks = clicks + used
        moves += 1
        assert moves < MAX_MOVES
        wait_for_move_to_land(page, seq)
        assert not page.locator("#error").is_visible(), page.locator("#error").text_content()

    assert first_move_clicks <= 3, f"the first move took {first_move_clicks} clicks"
    assert {"challenge", "bet"} <= seen, seen
    # the final moment: ranking, per-round breakdown, the log in words
    assert page.locator("#ranking li").count() == 4
    assert page.locator("#breakdown table").count() == 2
    log = page.locator("#log").text_content()
    assert "challenges" in log and "The game is over" in log
    assert not re.search(r"(?<![A-Za-z0-9])[RYB][1-9F](?![A-Za-z0-9])", log)  # words, not codes
    shoot(page, "table-final")
    assert_accessible(page, "table, final")

    replay_url = page.locator("a", has_text="Replay this game").get_attribute("href")
    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
    assert page.locator("#felt [data-seat]").count() == 4

    # the replay of a public game can be shared: a visitor without an account opens it
    other = page.context.browser.new_context(viewport={"width": 390, "height": 844})
    visitor = other.new_page()
    visitor.goto(base + replay_url)
    visitor.wait_for_function("() => document.querySelector('#replay').dataset.ply === '0'")
    visitor.get_by_role("button", name="Last").click()
    visitor.wait_for_function("() => !document.querySelector('#ranking').hidden")
    assert "The game is over" in visitor.locator("#log").text_content()
    shoot(visitor, "replay")
    assert_accessible(visitor, "replay")
    other.close()


def test_a_whole_game_by_keyboard_alone_never_drops_focus_to_the_page(page, live_asgi):
    page.goto(live_asgi.url + "/")
    page.locator("#quick-play button[type=submit]").focus()
    page.keyboard.press("Enter")
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
    # the hand has the focus from the start: no tabbing through the page to reach it
    assert page.evaluate("document.activeElement.closest('#hand') !== null")

    moves = 0
    deadline = time.monotonic() + GAME_SECONDS
    while True:
        assert time.monotonic() < deadline, f"no final ranking after {moves} moves of ours"
        page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
        _assert_focus_kept(page, moves)
        if page.locator("#ranking").is_visible():
            break
        seq = int(page.locator("#table").get_attribute("data-seq"))
        _play_by_keyboard(page)
        moves += 1
        assert moves < MAX_MOVES
        wait_for_move_to_land(page, seq)
        _assert_focus_kept(page, moves)
        assert not page.locator("#error").is_visible(), page.locator("#error").text_content()


def _assert_focus_kept(page, moves):
    tag = page.evaluate("document.activeElement ? document.activeElement.tagName : 'BODY'")
    assert tag != "BODY", f"focus fell back to the page after {moves} moves"


def _focused_card(page) -> str | None:
    return page.evaluate("document.activeElement.dataset.card || null")


def _move_focus_to(page, card: str):
    """Arrow keys along the hand until `card` has the focus."""
    cards = [b.get_attribute("data-card") for b in page.locator("#hand button[data-card]").all()]
    here = cards.index(_focused_card(page)) if _focused_card(page) in cards else 0
    if _focused_card(page) not in cards:
        page.locator("#hand button[tabindex='0']").focus()  # pragma: no cover - not expected
    there = cards.index(card)
    key = "ArrowRight" if there > here else "ArrowLeft"
    for _ in range(abs(there - here)):
        page.keyboard.press(key)


def _reject_ready(page) -> bool | None:
    """Whether the reject button is enabled; None once it has left the page (no waiting)."""
    return page.evaluate("""() => {
      const b = document.querySelector('#actions [data-action=reject]');
      return b ? b.getAttribute('aria-disabled') !== 'true' : null;
    }""")


def _play_by_keyboard(page):
    from tests.e2e.play import enabled_cards, rank

    stage = stage_of(page)
    assert page.evaluate("document.activeElement.closest('#table') !== null")
    if stage == "bet":
        # Tab from the hand to the first bet button, then Enter
        for _ in range(30):
            page.keyboard.press("Tab")
            if page.evaluate("document.activeElement.dataset.action === 'bet'"):
                break
        page.keyboard.press("Enter")
        return
    if stage == "challenge":
        _move_focus_to(page, min(enabled_cards(page), key=rank))
        page.keyboard.press("Enter")  # picks the card and challenges with it
        return
    if stage == "reject":
        for _ in range(6):
            ready = _reject_ready(page)
            if ready is None:
                return  # the view moved on meanwhile (the last pick sent the rejection)
            fresh = [c for c in enabled_cards(page) if page.locator(
                f"#hand button[data-card='{c}'][aria-pressed=false]").count()]
            if ready or not fresh:
                break
            _move_focus_to(page, min(fresh, key=rank))
            seq = page.locator("#table").get_attribute("data-seq")
            page.keyboard.press("Enter")  # assigns it; the last one sends the rejection
            if page.locator("#table").get_attribute("data-seq") != seq or \
                    page.locator("#table[aria-busy]").count():
                return
        ready = _reject_ready(page)
        if ready is None:
            return
        if ready:
            page.keyboard.press("Enter")
            return
        page.keyboard.press("p")
        return
    if stage == "add" or stage == "done":
        page.keyboard.press("d")
        return
    if stage == "pass":
        page.keyboard.press("p")
        return
    pytest.fail(f"no move for stage {stage}")


def test_the_sites_pages_pass_axe_and_the_phone_menu_folds(page, live_asgi):
    from tests.conftest import make_user

    make_user("ann")
    for name, path in [("home", "/"), ("lobby", "/play/"), ("rules", "/rules/"),
                       ("profile", "/u/ann/")]:
        page.goto(live_asgi.url + path)
        shoot(page, f"page-{name}")
        assert_accessible(page, path)
    # at phone width the nav is one row: a Menu button that opens the links
    toggle = page.get_by_role("button", name="Menu")
    assert toggle.is_visible() and not page.get_by_role("link", name="Leaderboard").is_visible()
    toggle.click()
    assert page.get_by_role("link", name="Leaderboard").is_visible()
    assert toggle.get_attribute("aria-expanded") == "true"


def test_resigning_hands_the_seat_to_a_bot_and_ranks_you_last(page, live_asgi):
    page.goto(live_asgi.url + "/")
    page.get_by_role("button", name="Play against bots").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_function(WAIT_FOR_TURN_OR_END, timeout=30_000)
    page.get_by_text("Resign", exact=True).click()
    page.get_by_role("button", name="Resign and leave").click()
    # at once a spectator's page: the confirmation closed, no hand, no "You" for the bot
    page.wait_for_function("() => document.querySelector('#hand-section').hidden")
    assert not page.locator("#resign").is_visible()
    assert not page.locator(".resign__confirm").is_visible()
    # the bot plays the seat to the end; the ranking puts the one who left last
    page.wait_for_function("() => !document.querySelector('#ranking').hidden", timeout=120_000)
    assert "you left it" in page.locator("#prompt").text_content()
    last = page.locator("#ranking li").last.text_content()
    assert "(you)" in last and "ranks last" in last
    assert not page.locator("#resign").is_visible()
    lines = page.locator("#log li").all_text_contents()
    resigned_at = next(i for i, t in enumerate(lines) if "Basic bot for " in t)
    assert not [t for t in lines[resigned_at:] if t.startswith("You ")]
