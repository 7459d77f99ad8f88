"""static/js/table/socket.js in Chromium, against a scripted socket and a fake clock: the
25 s ping, reconnecting with exponential backoff (spread), resync after a reconnect, and views
older than the one shown ignored."""

import pytest

pytestmark = pytest.mark.django_db(transaction=True)

FAKE_SOCKET = """
window.__sockets = [];
class FakeSocket {
  constructor(url) { this.url = url; this.sent = []; this.readyState = 0; this.on = {};
    this.opened = performance.now(); window.__sockets.push(this); }
  addEventListener(type, fn) { (this.on[type] ||= []).push(fn); }
  send(data) { this.sent.push(JSON.parse(data).type); }
  close() {}
  emit(type, event = {}) { if (type === "open") this.readyState = 1;
    if (type === "close") this.readyState = 3; (this.on[type] || []).forEach((f) => f(event)); }
}
FakeSocket.OPEN = 1;
window.WebSocket = FakeSocket;
"""


def test_the_socket_pings_reconnects_with_backoff_resyncs_and_ignores_old_views(
        page, live_asgi):
    page.clock.install(time=1_000_000)
    page.add_init_script(FAKE_SOCKET)
    page.add_init_script("Math.random = () => 0.5;")  # the pauses' spread at its middle
    page.goto(live_asgi.url + "/rules/")
    page.clock.pause_at(2_000_000)  # from here time moves only when the test says so
    page.evaluate("""async () => {
      const { connectGame, PING_MS } = await import("/static/js/table/socket.js");
      window.__shown = 5; window.__views = []; window.__ping = PING_MS;
      connectGame(7, { currentSeq: () => window.__shown,
        onView: (v) => { window.__views.push(v.seq); window.__shown = v.seq; } });
    }""")
    sockets = "window.__sockets"
    assert page.evaluate(f"{sockets}.length") == 1
    assert page.evaluate(f"{sockets}[0].url").endswith("/ws/games/7/")
    page.evaluate(f"{sockets}[0].emit('open')")
    assert page.evaluate(f"{sockets}[0].sent") == []  # the first connection needs no sync

    page.clock.run_for(page.evaluate("window.__ping"))
    assert page.evaluate(f"{sockets}[0].sent") == ["ping"]

    def view(seq):
        page.evaluate(f"{sockets}.at(-1).emit('message', {{data: JSON.stringify("
                      f"{{type: 'view', seq: {seq}, view: {{seq: {seq}}}}})}})")
    view(4)  # older than shown: ignored
    view(6)
    view(6)  # the same seq again (a change without a move) is shown
    assert page.evaluate("window.__views") == [6, 6]

    # lost: reconnect after 1 s, 2 s, 4 s while the server stays away
    page.evaluate(f"{sockets}[0].emit('close', {{code: 1006}})")
    for delay, count in ((1000, 2), (2000, 3), (4000, 4)):
        page.clock.run_for(delay - 10)
        assert page.evaluate(f"{sockets}.length") == count - 1
        page.clock.run_for(10)
        assert page.evaluate(f"{sockets}.length") == count
        if count < 4:
            page.evaluate(f"{sockets}.at(-1).emit('close', {{code: 1006}})")
    # back: it asks for the current view at once, and the backoff starts again at 1 s
    page.evaluate(f"{sockets}.at(-1).emit('open')")
    assert page.evaluate(f"{sockets}.at(-1).sent") == ["sync"]
    view(9)
    assert page.evaluate("window.__views") == [6, 6, 9]
    page.evaluate(f"{sockets}.at(-1).emit('close', {{code: 1006}})")
    page.clock.run_for(1000)
    assert page.evaluate(f"{sockets}.length") == 5

    # a refusal (not signed in, no such game) is final: no reconnecting
    page.evaluate(f"{sockets}.at(-1).emit('close', {{code: 4404}})")
    page.clock.run_for(60_000)
    assert page.evaluate(f"{sockets}.length") == 5


@pytest.mark.parametrize("chance, pause_ms", [(0.0, 500), (0.999, 1499)])
def test_a_lost_socket_waits_between_half_and_one_and_a_half_times_its_pause(
        page, live_asgi, chance, pause_ms):
    # pages that lost their sockets together (a restart) come back spread over a while
    page.clock.install(time=1_000_000)
    page.add_init_script(FAKE_SOCKET)
    page.add_init_script(f"Math.random = () => {chance};")
    page.goto(live_asgi.url + "/rules/")
    page.clock.pause_at(2_000_000)
    page.evaluate("""async () => {
      const { connectGame } = await import("/static/js/table/socket.js");
      connectGame(7, { currentSeq: () => 0, onView: () => {} });
    }""")
    page.evaluate("window.__sockets[0].emit('close', {code: 1006})")
    page.clock.run_for(pause_ms - 10)
    assert page.evaluate("window.__sockets.length") == 1
    page.clock.run_for(20)
    assert page.evaluate("window.__sockets.length") == 2
