// The replay page: a finished game move by move, on the same board as the table, with the
// same log in words (from the server).
import { gettext, fmt } from "./i18n.js";
import { gameLog } from "./log.js";
import { renderBoard } from "./render.js";

const $ = (id) => document.getElementById(id);

/** The whole replay, fetched a page at a time (the server sends a bounded page of plies). */
async function fetchReplay(gameId) {
  let data = null;
  for (let start = 0; start !== null;) {
    const r = await fetch(`/games/${gameId}/replay/data/?start=${start}`, { credentials: "same-origin" });
    if (!r.ok) return null;
    const page = await r.json();
    if (data === null) data = page;
    else { data.moves.push(...page.moves); data.views.push(...page.views); data.log.push(...page.log); }
    start = page.next;
  }
  return data;
}

async function replayPage(root) {
  const data = await fetchReplay(root.dataset.game);
  if (data === null) { $("ply").textContent = gettext("This replay is not available."); return; }
  const log = gameLog($("log"), { initial: data.log, initialSeq: data.moves.length });
  let ply = 0;
  const show = () => {
    const frame = data.views[ply];
    const players = data.players.map((name, seat) => ({ name, bot: false, hand_size: frame.hands[seat].length, feathers: frame.feathers[seat] }));
    renderBoard({ ...frame, players, you: null, status: frame.finished ? "finished" : "playing" }, data.players);
    $("ply").textContent = fmt(gettext("move %(ply)s of %(total)s"), { ply, total: data.moves.length });
    const last = data.log.filter((l) => l.seq === ply).map((l) => l.text);
    $("last-move").textContent = ply === 0 ? gettext("The deal.") : last.join(" ");
    log.showUpTo(ply);
    root.dataset.ply = ply;
  };
  const steps = { first: () => 0, prev: () => Math.max(0, ply - 1), next: () => Math.min(data.moves.length, ply + 1), last: () => data.moves.length };
  root.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => { ply = steps[b.dataset.step](); show(); }));
  // The review's "Show": the position where that decision was taken.
  root.querySelectorAll("[data-goto]").forEach((b) => b.addEventListener("click", () => {
    ply = Math.min(data.moves.length, Number(b.dataset.goto)); show(); $("replay").scrollIntoView();
  }));
  document.addEventListener("keydown", (e) => {
    if (e.target.closest && e.target.closest("input, select, textarea")) return;
    if (e.key === "ArrowRight") { ply = steps.next(); show(); }
    if (e.key === "ArrowLeft") { ply = steps.prev(); show(); }
  });
  show();
}

if ($("replay")) replayPage($("replay"));
