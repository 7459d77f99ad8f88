"""Playing moves on the table page the way a person does (shared by the browser tests)."""

import json
import os
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"

# Either the game is over or it waits on us (a move button is on offer).
WAIT_FOR_TURN_OR_END = (
    "() => !document.querySelector('#ranking').hidden"
    " || document.querySelectorAll('#actions [data-action]').length > 0")


def rank(card: str) -> int:
    return 10 if card[1] == "F" else int(card[1])


def enabled_cards(page) -> list[str]:
    return [b.get_attribute("data-card")
            for b in page.locator("#hand button[data-card]:not([aria-disabled=true])").all()]


def stage_of(page) -> str:
    """What the game asks of us now: bet, challenge, reject, add, done or pass."""
    actions = page.locator("#actions")
    for kind in ("bet", "challenge", "reject", "add", "done", "pass"):
        if actions.locator(f"[data-action={kind}]").count():
            return kind
    return "none"


def play_one_move(page) -> tuple[str, int]:
    """Play sensibly by clicking: bet, reject everything when possible (lowest cards
    first), open with the lowest card, else say done or pass. Returns the move and the
    clicks it took."""
    actions = page.locator("#actions")
    kind = stage_of(page)
    if kind == "bet":
        actions.locator("[data-action=bet]").first.click()
        return "bet", 1
    if kind == "reject":
        clicks = 0
        reject = actions.locator("[data-action=reject]")
        while reject.get_attribute("aria-disabled") == "true":
            candidates = enabled_cards(page)
            pressed = {b.get_attribute("data-card") for b in
                       page.locator("#hand button[aria-pressed=true]").all()}
            fresh = [c for c in candidates if c not in pressed]
            if not fresh:
                break
            low = min(fresh, key=rank)
            page.locator(f"#hand button[data-card='{low}'][aria-pressed=false]").first.click()
            clicks += 1
        if reject.get_attribute("aria-disabled") != "true":
            reject.click()
            return "reject", clicks + 1
        actions.locator("[data-action=pass]").click()
        return "pass", clicks + 1
    if kind == "challenge":
        low = min(enabled_cards(page), key=rank)
        page.locator(f"#hand button[data-card='{low}']:not([aria-disabled=true])").first.click()
        actions.locator("[data-action=challenge]").click()
        return "challenge", 2
    for action in ("done", "pass"):
        if actions.locator(f"[data-action={action}]").count():
            actions.locator(f"[data-action={action}]").click()
            return action, 1
    pytest.fail(f"no move to make: {actions.inner_html()!r}; status "
                f"{page.locator('#status').text_content()!r}, prompt "
                f"{page.locator('#prompt').text_content()!r}, seq "
                f"{page.locator('#table').get_attribute('data-seq')}")


def wait_for_move_to_land(page, seq: int):
    page.wait_for_function(
        "() => !document.querySelector('#table').hasAttribute('aria-busy') && ("
        f"Number(document.querySelector('#table').dataset.seq) > {seq}"
        " || !document.querySelector('#error').hidden)", timeout=30_000)


def axe_violations(page) -> list[dict]:
    """Serious and critical axe-core violations on the page as it is now."""
    if not AXE.exists():
        pytest.skip("axe-core is not installed: run `npm ci` (make test does)")
    page.evaluate(AXE.read_text())
    result = page.evaluate("async () => (await axe.run(document, {resultTypes: ['violations']}))"
                           ".violations.map(v => ({id: v.id, impact: v.impact, help: v.help,"
                           " nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}))")
    return [v for v in result if v["impact"] in ("serious", "critical")]


def assert_accessible(page, where: str):
    bad = axe_violations(page)
    assert not bad, f"{where}: " + json.dumps(bad, indent=1)


def shots_dir() -> Path:
    shots = Path(os.environ.get("BLAZE_SCREENSHOTS") or ROOT / "artifacts" / "screenshots")
    shots.mkdir(parents=True, exist_ok=True)
    return shots


def shoot(page, name: str):
    """The page at phone size (the viewport as it is) and at desktop size."""
    shots = shots_dir()
    page.screenshot(path=shots / f"{name}-phone.png")
    size = page.viewport_size
    page.set_viewport_size({"width": 1280, "height": 800})
    page.screenshot(path=shots / f"{name}-desktop.png", full_page=True)
    page.set_viewport_size(size)
