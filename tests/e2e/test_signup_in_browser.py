import os

import pytest
from django.core import mail

pytestmark = pytest.mark.django_db(transaction=True)


def test_visitor_signs_up_from_the_home_page(live_server, page):
    page.goto(live_server.url + "/")
    assert page.get_by_role("button", name="Play against bots").is_visible()
    page.get_by_role("button", name="Menu").click()  # a phone: the nav folds into a menu
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("fay")
    page.get_by_label("Email").fill("fay@example.com")
    page.get_by_label("Password:", exact=True).fill("fiery-bird-42-feathers")
    page.get_by_label("Password (again):").fill("fiery-bird-42-feathers")
    _screenshot(page, "signup")
    page.get_by_role("button", name="Sign Up").click()
    page.wait_for_url("**/confirm-email/")
    assert "Verify Your Email Address" in page.content()
    assert mail.outbox[0].to == ["fay@example.com"]


def test_skip_link_is_the_first_stop_for_keyboard_users(live_server, page):
    page.goto(live_server.url + "/")
    page.keyboard.press("Tab")
    focused = page.evaluate("document.activeElement.textContent")
    assert focused.strip() == "Skip to content"
    _screenshot(page, "home")


def _screenshot(page, name):
    """BLAZE_SCREENSHOTS=DIR keeps a picture of the page, to look at the design."""
    if os.environ.get("BLAZE_SCREENSHOTS"):
        page.screenshot(path=f"{os.environ['BLAZE_SCREENSHOTS']}/{name}.png", full_page=True)
