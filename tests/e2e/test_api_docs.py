"""The interactive API docs page (django-ninja's Swagger UI in the site's own template)
passes axe-core like every other page."""

import pytest

from tests.e2e.play import assert_accessible

pytestmark = pytest.mark.django_db(transaction=True)


def test_the_api_docs_page_has_no_serious_axe_finding(page, live_asgi):
    page.goto(live_asgi.url + "/api/v1/docs")
    page.wait_for_selector(".opblock-summary", timeout=30_000)
    assert page.evaluate("document.documentElement.lang") == "en"
    assert_accessible(page, "API docs")
    # every operation opened, one in "Try it out" (parameters, Execute, Cancel): still none
    summaries = page.locator(".opblock-summary")
    for i in range(summaries.count()):
        summaries.nth(i).click()
    page.wait_for_selector(".opblock-body", timeout=10_000)
    page.locator(".try-out__btn").first.click()
    page.wait_for_selector(".btn.execute", timeout=10_000)
    assert_accessible(page, "API docs, operations opened")
