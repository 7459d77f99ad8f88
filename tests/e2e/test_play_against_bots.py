"""A person signs up, opens a table with two bots from the lobby and plays a whole game
by clicking, in a real browser against a real uvicorn (HTTP and WebSocket)."""

import os
import re
from pathlib import Path

import pytest

from tests.e2e.play import play_one_move

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "fiery-bird-42-feathers"
MAX_MOVES = 400          # our own moves; a sensible game needs far fewer
MAX_OUR_MOVES = 1000     # a game that circles this long is stuck (no time bound: CPU varies)


def test_person_plays_a_whole_game_against_two_bots(page, live_asgi):
    shots = Path(os.environ.get("BLAZE_SCREENSHOTS") or "artifacts/screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    base = live_asgi.url

    _sign_up_and_verify(page, base, live_asgi.mail_dir, "fay")

    page.goto(base + "/play/")
    page.get_by_label("Players").select_option("3")
    page.get_by_label("Seat 2").select_option("basic")
    page.get_by_label("Seat 3").select_option("strong")
    _shoot(page, shots, "lobby")
    page.get_by_role("button", name="Create table").click()
    page.wait_for_url(re.compile(r"/games/\d+/$"))
    page.wait_for_function("() => document.querySelector('#table').dataset.seq !== undefined")
    # Every seat shows its clock (10 minutes, live); the running ones count down.
    page.wait_for_function("() => document.querySelectorAll('.player__clock').length === 3")
    clocks = page.locator(".player__clock").all_text_contents()
    assert any(re.fullmatch(r"\d+:\d\d left", c) for c in clocks), clocks

    moves, mid_challenge_shot = 0, False
    while True:
        assert moves < MAX_OUR_MOVES, f"no final ranking after {moves} moves of ours; " \
            f"status: {page.locator('#status').text_content()}"
        page.wait_for_function(
            "() => !document.querySelector('#ranking').hidden"
            " || document.querySelectorAll('#actions [data-action]').length > 0",
            timeout=30_000)
        if page.locator("#ranking").is_visible():
            break
        assert page.title().startswith("Your turn"), page.title()
        if not mid_challenge_shot and page.locator("#challenge [data-index]").count() > 0:
            _shoot(page, shots, "table-challenge")
            mid_challenge_shot = True
        seq = int(page.locator("#table").get_attribute("data-seq"))
        action, _clicks = play_one_move(page)
        moves += 1
        assert moves < MAX_MOVES, f"the game went on for {moves} moves of ours"
        page.wait_for_function(
            "() => !document.querySelector('#table').hasAttribute('aria-busy') && ("
            f"Number(document.querySelector('#table').dataset.seq) > {seq}"
            " || !document.querySelector('#error').hidden)", timeout=30_000)
        error = page.locator("#error")
        assert not error.is_visible(), f"{action} at seq {seq} refused: {error.text_content()}\n" \
            + "".join(live_asgi.log.read_text().splitlines(keepends=True)[-40:])

    assert mid_challenge_shot
    _shoot(page, shots, "table-ranking")
    assert page.locator("#ranking li").count() == 3
    assert "Finished" in page.locator("#status").text_content()
    assert "fay" in page.locator("#ranking").text_content()


def _shoot(page, shots: Path, name: str):
    """A full-page picture at phone width (the page fixture's) and at desktop width."""
    page.screenshot(path=shots / f"{name}.png", full_page=True)
    phone = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=shots / f"{name}-desktop.png", full_page=True)
    page.set_viewport_size(phone)


def _sign_up_and_verify(page, base, mail_dir, name):
    page.goto(base + "/account/signup/")
    page.get_by_label("Username").fill(name)
    page.get_by_label("Email").fill(f"{name}@example.com")
    page.get_by_label("Password:", exact=True).fill(PASSWORD)
    page.get_by_label("Password (again):").fill(PASSWORD)
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url("**/confirm-email/")
    mails = "".join(p.read_text() for p in sorted(mail_dir.iterdir()))
    link = re.search(r"https?://\S+/confirm-email/\S+/", mails)
    assert link, f"no confirmation link in the email:\n{mails}"
    page.goto(link.group(0))
    page.get_by_role("button", name="Confirm").click()
    page.wait_for_url(base + "/")  # confirming in the browser that signed up logs in
