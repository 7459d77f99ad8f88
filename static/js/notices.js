// The unread count in the navigation, live: a socket at /ws/notices/ sends
// {"type": "unread", "count": n} on connect and whenever a notice is made, updated or
// read (notifications/live.py). A lost socket reconnects with growing pauses; a refusal
// (4401: signed out) is final.
const link = document.getElementById("nav-notifications");
const FIRST_DELAY_MS = 1000;
const MAX_DELAY_MS = 30000;
const PING_MS = 50000;

function show(count) {
  let badge = document.getElementById("nav-unread");
  if (!count) {
    if (badge) badge.remove();
    return;
  }
  if (!badge) {
    badge = document.createElement("span");
    badge.className = "badge badge--turn";
    badge.id = "nav-unread";
    link.append(" ", badge);
  }
  const hidden = document.createElement("span");
  hidden.className = "visually-hidden";
  hidden.textContent = ` ${link.dataset.unreadText || ""}`;
  badge.replaceChildren(String(count), hidden);
}

function connect() {
  let delay = FIRST_DELAY_MS;
  let pinger = null;
  const open = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/notices/`);
    socket.addEventListener("open", () => {
      delay = FIRST_DELAY_MS;
      pinger = setInterval(() => {
        if (socket.readyState === WebSocket.OPEN) socket.send('{"type":"ping"}');
      }, PING_MS);
    });
    socket.addEventListener("message", (event) => {
      let message = null;
      try {
        message = JSON.parse(event.data);
      } catch (error) {
        return;
      }
      if (message && message.type === "unread") show(message.count);
    });
    socket.addEventListener("close", (event) => {
      clearInterval(pinger);
      if (event.code >= 4000 && event.code < 5000) return;
      setTimeout(open, delay * (0.5 + Math.random()));  // spread, as table/socket.js
      delay = Math.min(delay * 2, MAX_DELAY_MS);
    });
  };
  open();
}

if (link && "WebSocket" in window) connect();
