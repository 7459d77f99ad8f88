"""The navigation's unread count in Chromium: it appears, grows and goes away without a
reload as notices come and are read (ws/notices/ through a real uvicorn); the notice
settings page has no serious accessibility issue and offers the device's time zone."""

import json
import urllib.request

import pytest

from accounts.services import api_token_create
from notifications.models import Notification
from tests.conftest import make_user
from tests.e2e.play import assert_accessible, shoot
from tests.e2e.test_table_talk import _signed_in

pytestmark = pytest.mark.django_db(transaction=True)

BADGE = "() => (document.getElementById('nav-unread') || {}).firstChild?.textContent || ''"


def _invite(live_asgi, secret: str, username: str) -> None:
    """An invitation to a table, sent through the running site (its process tells the
    invited player: the count goes out from there)."""
    request = urllib.request.Request(
        f"{live_asgi.url}/api/v1/challenges", method="POST",
        data=json.dumps({"invite": [username], "players": 3, "bots": ["basic"]}).encode(),
        headers={"Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 201

MARK_ALL_READ = """async () => {
  const token = document.cookie.split("; ").find((c) => c.startsWith("csrftoken="));
  const answer = await fetch("/api/v1/notices/read", {method: "POST",
    headers: {"X-CSRFToken": token ? token.split("=")[1] : ""}});
  return answer.status;
}"""


def test_the_unread_count_follows_notices_without_a_reload(browser, live_asgi):
    ann = make_user("ann", language="es")
    secret = api_token_create(user=make_user("bob"), name="e2e")[1]
    context, page, errors = _signed_in(browser, live_asgi, ann, {"width": 390, "height": 844})
    try:
        page.goto(f"{live_asgi.url}/notifications/settings/")
        page.wait_for_selector("#notice-settings")
        assert page.locator("#nav-unread").count() == 0
        page.wait_for_function("() => window.performance.getEntriesByType('resource')"
                               ".some((r) => r.name.includes('notices.js'))")
        page.wait_for_timeout(500)  # the socket is open (its first count came: none)
        _invite(live_asgi, secret, "ann")
        page.wait_for_function(f"() => ({BADGE})() === '1'")
        _invite(live_asgi, secret, "ann")
        page.wait_for_function(f"() => ({BADGE})() === '2'")
        assert "sin leer" in page.locator("#nav-unread").text_content()
        assert page.evaluate(MARK_ALL_READ) == 200
        page.wait_for_function("() => !document.getElementById('nav-unread')")
        assert not Notification.objects.filter(user=ann, read=False).exists()

        assert_accessible(page, "the notice settings page")
        shoot(page, "notice-settings")
    finally:
        context.close()
    assert not errors, errors


def test_the_settings_page_offers_the_devices_time_zone_for_quiet_hours(browser, live_asgi):
    from datetime import time

    from django.conf import settings
    from django.test import Client

    from accounts.models import User

    ann = make_user("ann")
    client = Client()
    client.force_login(ann)
    context = browser.new_context(viewport={"width": 390, "height": 844},
                                  timezone_id="Asia/Tokyo")
    host = live_asgi.url.split("//")[1].split(":")[0]
    context.add_cookies([{"name": settings.SESSION_COOKIE_NAME,
                          "value": client.cookies[settings.SESSION_COOKIE_NAME].value,
                          "domain": host, "path": "/"}])
    page = context.new_page()
    errors = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    try:
        page.goto(f"{live_asgi.url}/notifications/settings/")
        page.locator("#timezone-browser").click()
        assert page.locator("#id_timezone").input_value() == "Asia/Tokyo"
        page.locator("#id_quiet_start").fill("22:00")
        page.locator("#id_quiet_end").fill("07:00")
        page.locator("#id_reminder_hours").fill("24, 2")
        page.locator("#id_channel_game_over").select_option("none")
        page.locator("#notice-settings button[type=submit]").click()
        page.wait_for_selector("ul.messages")
    finally:
        context.close()
    assert not errors, errors
    user = User.objects.get(pk=ann.pk)
    assert user.timezone == "Asia/Tokyo"
    assert (user.quiet_start, user.quiet_end) == (time(22, 0), time(7, 0))
    assert user.reminder_hours == [24, 2] and user.notice_channels["game_over"] == "none"
