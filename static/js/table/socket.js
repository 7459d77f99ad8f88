// The live connection of a table: the server sends this user's own view after every
// change. A ping every ~25 s keeps the socket (and the server's "table is open" presence)
// alive; a lost socket reconnects with exponential backoff (each pause spread by half
// either way) and asks for a fresh view
// ({"type": "sync"}); a view older than the one shown is ignored (by seq).

export const PING_MS = 25_000;
const FIRST_DELAY_MS = 1_000;
const MAX_DELAY_MS = 30_000;

/**
 * connectGame(gameId, { currentSeq, onView, onOnline, onOffline }) -> { close }
 * onView(view) gets views in seq order only (never one older than currentSeq()).
 */
export function connectGame(gameId, { currentSeq, onView, onOnline = () => {}, onOffline = () => {} }) {
  let delay = FIRST_DELAY_MS;
  let socket = null;
  let pinger = null;
  let closed = false;
  let reconnecting = false;

  function open() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    socket = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}/`);
    socket.addEventListener("open", () => {
      delay = FIRST_DELAY_MS;
      onOnline();
      // after a reconnect, ask for the current view at once (the server sends one on
      // connect too; sync also covers a server that does not)
      if (reconnecting) socket.send(JSON.stringify({ type: "sync" }));
      document.dispatchEvent(new CustomEvent("blaze:socket-open", { detail: { reconnected: reconnecting } }));
      reconnecting = false;
      clearInterval(pinger);
      pinger = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: "ping" }));
      }, PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let msg;
      try { msg = JSON.parse(event.data); } catch { return; }
      if (msg.type !== "view") {
        // other messages (e.g. table talk) go to whichever part of the page listens
        document.dispatchEvent(new CustomEvent("blaze:socket", { detail: msg }));
        return;
      }
      if (typeof msg.seq !== "number") return;
      if (msg.seq < currentSeq()) return;  // late: we already show a newer view
      onView(msg.view);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(pinger);
      if (closed) return;
      onOffline(event);
      if (event.code === 4401 || event.code === 4404 || event.code === 4403) return;  // final
      reconnecting = true;
      // spread by half either way: pages that lost their sockets together (a restart)
      // come back over a while, not all in the same instant
      setTimeout(open, delay * (0.5 + Math.random()));
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    });
  }
  open();
  return { close() { closed = true; clearInterval(pinger); socket?.close(); } };
}
