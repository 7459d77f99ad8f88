// Table talk: phrases by tap, free text as plain text (textContent only: never markup, so
// links are not clickable), new lines from the table's socket ("blaze:socket" events that
// static/js/table/socket.js hands on), the history from the API on load and reconnect.

import { gettext } from "../table/i18n.js";

const root = document.getElementById("talk");
if (root) {
  const gameId = root.dataset.game;
  const csrf = root.dataset.csrf;
  const lines = document.getElementById("talk-lines");
  const error = document.getElementById("talk-error");
  const shown = new Set();

  function line(msg) {
    if (shown.has(msg.seq)) return;
    shown.add(msg.seq);
    const li = document.createElement("li");
    li.className = "talk__line";
    li.dataset.seq = msg.seq;
    const who = document.createElement("strong");
    who.textContent = `${msg.from}: `;
    const said = document.createElement("span");
    said.textContent = msg.text;
    if (msg.phrase) said.className = "talk__phrase";
    li.append(who, said);
    if (root.dataset.signedIn) {
      const report = document.createElement("button");
      report.type = "button";
      report.className = "link-button talk__report";
      report.textContent = gettext("Report");
      report.addEventListener("click", () => reportLine(msg));
      li.append(" ", report);
    }
    const later = [...lines.children].find((other) => Number(other.dataset.seq) > msg.seq);
    lines.insertBefore(li, later || null);
    lines.scrollTop = lines.scrollHeight;
    bubble(msg);
  }

  // beside the seat, for a few seconds
  function bubble(msg) {
    if (msg.seat === null || msg.seat === undefined) return;
    const seat = document.querySelector(`[data-seat="${msg.seat}"]`);
    if (!seat) return;
    let b = seat.querySelector(".talk__bubble");
    if (!b) {
      b = document.createElement("span");
      b.className = "talk__bubble";
      seat.append(b);
    }
    b.textContent = msg.text;
    clearTimeout(b._timer);
    b._timer = setTimeout(() => b.remove(), 6000);
  }

  function showError(text) {
    error.textContent = text;
    error.hidden = !text;
  }

  async function post(path, body) {
    const r = await fetch(path, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
      body: JSON.stringify(body),
    });
    const answer = await r.json().catch(() => ({}));
    if (!r.ok) throw new Error(answer.error || r.statusText);
    return answer;
  }

  async function say(body) {
    try {
      line(await post(`/api/v1/games/${gameId}/chat`, body));
      showError("");
      return true;
    } catch (e) {
      showError(e.message);
      return false;
    }
  }

  async function reportLine(msg) {
    const reason = window.prompt(gettext("Why do you report this message?"));
    if (!reason) return;
    try {
      await post("/api/v1/reports", { reason, game: Number(gameId), seq: msg.seq });
      showError("");
    } catch (e) {
      showError(e.message);
    }
  }

  async function history() {
    if (!root.dataset.signedIn) return;
    const r = await fetch(`/api/v1/games/${gameId}/chat`, { credentials: "same-origin" });
    if (!r.ok) return;
    for (const msg of (await r.json()).messages) line(msg);
  }

  root.querySelectorAll("[data-phrase]").forEach((button) => {
    button.addEventListener("click", () => say({ phrase: button.dataset.phrase }));
  });
  const form = document.getElementById("talk-form");
  form?.addEventListener("submit", async (event) => {
    event.preventDefault();
    const input = form.elements.text;
    if (input.value.trim() && await say({ text: input.value })) input.value = "";
  });
  document.addEventListener("blaze:socket", (event) => {
    if (event.detail && event.detail.type === "chat") line(event.detail);
  });
  document.addEventListener("blaze:socket-open", (event) => {
    if (event.detail && event.detail.reconnected) history();
  });
  history();
}
