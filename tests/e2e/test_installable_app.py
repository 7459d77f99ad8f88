"""The installable app in Chromium: the manifest and its icons load, the service worker
takes the whole site, and a push it receives is shown as a notice that names the table.
(Chromium gets the push through DevTools, as a push service would hand it over.)"""

import json


def test_the_manifest_and_service_worker_register_and_a_push_is_shown(browser, live_asgi):
    base = live_asgi.url
    context = browser.new_context()
    context.grant_permissions(["notifications"], origin=base)
    page = context.new_page()
    page.set_default_timeout(15_000)
    cdp = context.new_cdp_session(page)
    registrations = {}
    cdp.on("ServiceWorker.workerRegistrationUpdated", lambda event: registrations.update(
        {r["scopeURL"]: r["registrationId"] for r in event["registrations"]}))
    cdp.send("ServiceWorker.enable")
    try:
        page.goto(base + "/")
        scope = page.evaluate("navigator.serviceWorker.ready.then(r => r.scope)")
        assert scope == base + "/"
        manifest = page.evaluate("""async () => {
            const link = document.querySelector('link[rel=manifest]');
            const data = await (await fetch(link.href)).json();
            const icons = await Promise.all(data.icons.map(i => fetch(i.src)));
            return {data, icons: icons.map(r => [r.status, r.headers.get('content-type')])};
        }""")
        assert manifest["data"]["display"] == "standalone"
        assert manifest["icons"] == [[200, "image/png"]] * 2
        for _ in range(100):  # DevTools reports the registration on its own schedule
            if base + "/" in registrations:
                break
            page.wait_for_timeout(100)
        registration = registrations[base + "/"]
        notice = {"title": "Your turn in game 7", "body": "Game 7: it is your turn.",
                  "url": "https://elsewhere.example/games/7/", "tag": "your_turn:7"}
        cdp.send("ServiceWorker.deliverPushMessage", {
            "origin": base + "/", "registrationId": registration, "data": json.dumps(notice)})
        shown = page.wait_for_function("""() => navigator.serviceWorker.ready
            .then(r => r.getNotifications())
            .then(ns => ns.length ? ns.map(n => [n.title, n.body, n.tag, n.data.url]) : null)""")
        # The link is rebuilt on this site: a push cannot send the player elsewhere.
        assert shown.json_value() == [["Your turn in game 7", "Game 7: it is your turn.",
                                       "your_turn:7", base + "/games/7/"]]
    finally:
        context.close()
