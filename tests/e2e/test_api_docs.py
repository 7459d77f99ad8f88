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
    # operations with path, query, header and body parameters opened, one in "Try it out"
    # (Execute, Cancel): still none (all forty would only repeat the same parts, slowly)
    for method, path in [("get", "/api/v1/games/{game_id}"),
                         ("post", "/api/v1/games/{game_id}/moves"),
                         ("delete", "/api/v1/push/subscriptions")]:
        page.locator(f".opblock-{method} .opblock-summary-path[data-path='{path}']").click()
    page.wait_for_selector(".opblock-body", timeout=10_000)
    page.locator(".opblock-get .try-out__btn").first.click()
    page.wait_for_selector(".btn.execute", timeout=10_000)
    assert page.locator(".parameter__in").count() >= 3  # path, query and header
    assert_accessible(page, "API docs, operations opened")
