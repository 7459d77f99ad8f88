// The live table page (templates/games/table.html): renders the server's view of the game.
//
// Hooks for tests and assistive tech (keep them stable):
//   #status  game status and whose move it is   #prompt  what you may do now
//   #error   the last refused move's sentence    #ranking final ranking; #breakdown per round
//   #hand    your cards: <button data-card="R5" aria-pressed [aria-disabled]>
//   #actions move buttons: data-action="challenge" | "add" | "reject" | "pass" | "done"
//            | "bet" (with data-on, data-value)
//   #players one <li data-seat> per seat;  #challenge one <li data-index> per pair
//   #log     the game log;  #round-summary  the last round's summary
//   .player__clock[data-clock-seat]  a seat's clock (timed games)
import { createActions } from "./actions.js";
import { el } from "./cards.js";
import { deadlineFormatter, clockText } from "./clocks.js";
import { fmt, gettext, pageLanguage } from "./i18n.js";
import { gameLog } from "./log.js";
import { animateBoard, snapshotBoard } from "./motion.js";
import { renderBoard, roundTable, statusText } from "./render.js";
import { connectGame } from "./socket.js";
import { sounds } from "./sound.js";

const $ = (id) => document.getElementById(id);

export function tablePage(root) {
  const gameId = root.dataset.game;
  let view = JSON.parse($("game-view").textContent);
  const initialLog = JSON.parse($("game-log").textContent);
  const log = gameLog($("log"), { initial: initialLog.lines, initialSeq: initialLog.seq });
  log.draw();
  let roundsShown = view.round_losers.length;
  const deadlines = deadlineFormatter(root.dataset.timezone || "UTC");
  let viewArrived = performance.now();
  const sound = sounds($("sound-toggle"));
  let wasMyTurn = !!view.options;

  const names = () => view.players.map((p) => p.name);
  const showError = (text) => { $("error").hidden = !text; $("error").textContent = text || ""; };

  async function fetchView() {
    const r = await fetch(`/api/v1/games/${gameId}`, { credentials: "same-origin", headers: pageLanguage() });
    if (r.ok) render(await r.json());
    return r.ok;
  }

  function tickClocks() {
    const elapsed = (performance.now() - viewArrived) / 1000;
    const correspondence = view.time_control?.kind === "correspondence";
    for (const clock of view.clocks || []) {
      const node = root.querySelector(`[data-clock-seat="${clock.seat}"]`);
      if (!node) continue;
      node.textContent = clockText(clock, elapsed, correspondence, deadlines);
      node.classList.toggle("player__clock--running", clock.running && !clock.paused);
    }
  }

  // a move of yours that lands puts the round summary away: play dismisses it
  let summaryAt = -1;  // the seq of the view that brought the round summary
  const played = (next) => {
    if (next && summaryAt < next.seq) $("round-summary").hidden = true;
    render(next);
  };
  const actions = createActions({ root, gameId, csrf: root.dataset.csrf, getView: () => view,
    render: played, fetchView, showError });

  function showRoundSummary() {
    const box = $("round-summary");
    const r = view.round_losers.length - 1;
    if (r < 0 || view.status === "finished") { box.hidden = true; return; }
    // compact, at the top of the screen with the prompt: the scores on demand; your next
    // move (or the button) puts it away
    const scores = el("details");
    scores.append(el("summary", {}, gettext("Scores")), roundTable(view, names(), r));
    const close = el("button", { type: "button", class: "button button--small button--secondary" }, gettext("Back to the game"));
    close.addEventListener("click", () => { box.hidden = true; actions.restoreFocus(); });
    const row = el("div", { class: "round-summary__row" });
    row.append(scores, close);
    box.replaceChildren(el("h2", { id: "round-summary-title" },
      fmt(gettext("Round %(round)s is over: %(loser)s lost the round."),
        { round: r + 1, loser: names()[view.round_losers[r]] })), row);
    box.hidden = false;
    summaryAt = view.seq;
  }

  function render(next) {
    if (next && next.seq < view.seq) return;  // never step back to an older view
    const before = snapshotBoard(root);
    if (next) {
      if (next.seq !== view.seq || next !== view) log.update(next, gameId);
      view = next;
      viewArrived = performance.now();
    }
    root.dataset.seq = view.seq;
    const n = names();
    const myTurn = !!view.options;
    document.title = `${myTurn ? `${gettext("Your turn")} · ` : ""}${fmt(gettext("Table %(id)s"), { id: gameId })} · Blaze`;
    $("status").textContent = statusText(view, n);
    root.classList.toggle("table--my-turn", myTurn);
    root.dataset.stage = view.status === "finished" ? "final" : view.stage || view.status;
    renderBoard(view, n);
    tickClocks();
    if (view.status !== "waiting" && $("waiting-actions")) $("waiting-actions").hidden = true;

    let prompt = actions.draw(n);
    if (view.status === "playing" && !myTurn) {
      const waiting = (view.waiting_on || []).filter((s) => s !== view.you).map((s) => n[s]);
      prompt = fmt(gettext("Waiting on %(who)s."), { who: waiting.join(", ") });
    }
    const order = view.final_ranking || view.ranking;
    if (view.status === "finished" && order) {
      prompt = view.you !== null && view.players[view.you].abandoned
        ? gettext("The game is over: you left it, so you rank last.")
        : order[0] === view.you ? gettext("The game is over: you win!")
          : fmt(gettext("The game is over: %(who)s wins."), { who: n[order[0]] });
    }
    $("prompt-text").textContent = prompt;
    $("prompt").hidden = !prompt;
    // a player who resigned watches the bot play their seat, as a spectator
    const left = view.you !== null && view.players[view.you].abandoned;
    $("hand-section").hidden = view.you === null || left || view.status !== "playing";
    if (left) document.documentElement.style.setProperty("--dock-h", "0px");
    if (view.round_losers.length !== roundsShown) {
      roundsShown = view.round_losers.length;
      showRoundSummary();
    }
    const over = view.status === "finished" || view.status === "aborted";
    const justOver = over && $("after-game").hidden;
    $("after-game").hidden = !over;
    if (over) $("round-summary").hidden = true;
    const resign = $("resign");
    if (resign) {
      resign.hidden = !(view.status === "playing" && view.you !== null && !left);
      if (resign.hidden) resign.open = false;
    }
    if (myTurn && !wasMyTurn) sound.turn();
    wasMyTurn = myTurn;
    animateBoard(root, before);
    if (myTurn) keepInView(root);
    if (justOver && view.ranking) {
      $("ranking-title").focus();
      $("after-game").scrollIntoView({ block: "start" });
    } else actions.restoreFocus();
  }

  render(view);
  if (view.you !== null && view.status === "playing") actions.focusHand();
  connectGame(gameId, {
    currentSeq: () => view.seq,
    onView: (next) => render(next),
    onOnline: () => { $("offline").hidden = true; },
    onOffline: () => { $("offline").hidden = false; },
  });
  setInterval(tickClocks, 1000);
  tips($("tips"));
  dockHeight($("hand-section"));
  resign(root, gameId, (next) => render(next), showError);
}

/** Resign: POST /api/v1/games/{id}/resign; the seat goes to a bot and you rank last. */
function resign(root, gameId, render, showError) {
  const button = root.querySelector("[data-action=resign]");
  button?.addEventListener("click", async () => {
    const r = await fetch(`/api/v1/games/${gameId}/resign`, {
      method: "POST", credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": root.dataset.csrf, ...pageLanguage() }, body: "{}",
    }).catch(() => null);
    const body = r ? await r.json().catch(() => ({})) : {};
    if (r && r.ok) {
      const box = document.getElementById("resign");
      box.open = false;
      box.hidden = true;
      if (body.seq !== undefined) render(body);
    } else showError(body.error || gettext("The server cannot be reached: check your connection and try again."));
  });
}

/** At your turn, scroll (only if needed) so that the cards on the table, the trump, your
 *  hand and the move buttons are all on screen: below the sticky prompt, above the dock
 *  where the hand is docked (phones). The table's cards win when not everything fits. */
function keepInView(root) {
  const dock = document.getElementById("hand-section");
  const center = root.querySelector(".felt__center");
  if (!dock || !center || dock.hidden) return;
  const docked = getComputedStyle(dock).position === "fixed";
  const topBar = root.querySelector(".table-top").getBoundingClientRect().bottom;
  const top = center.getBoundingClientRect().top;
  const bottom = (docked ? center : dock).getBoundingClientRect().bottom;
  const roomTop = Math.max(topBar, 0) + 4;
  const roomBottom = innerHeight - (docked ? dock.offsetHeight : 0) - 4;
  if (top >= roomTop && bottom <= roomBottom) return;
  let dy = bottom - roomBottom;
  if (top - dy < roomTop) dy = top - roomTop;
  window.scrollBy({ top: dy, behavior: "instant" });
}

/** The docked hand covers the page's bottom: pad the page by its height. */
function dockHeight(dock) {
  if (!dock || !window.ResizeObserver) return;
  const set = () => {
    const fixed = getComputedStyle(dock).position === "fixed" && !dock.hidden;
    document.documentElement.style.setProperty("--dock-h", fixed ? `${dock.offsetHeight}px` : "0px");
  };
  new ResizeObserver(set).observe(dock);
  window.addEventListener("resize", set);
  set();
}

/** First-game tips: shown until dismissed (remembered in this browser). */
function tips(box) {
  if (!box) return;
  const key = "blaze.tips.dismissed";
  let dismissed = false;
  try { dismissed = localStorage.getItem(key) === "1"; } catch { /* private mode */ }
  box.hidden = dismissed;
  if (window.matchMedia("(min-width: 48rem)").matches) box.open = true;  // room to spare
  box.querySelector("[data-dismiss]")?.addEventListener("click", () => {
    box.hidden = true;
    try { localStorage.setItem(key, "1"); } catch { /* private mode */ }
    document.getElementById("prompt")?.focus();
  });
}

if ($("table")) tablePage($("table"));
