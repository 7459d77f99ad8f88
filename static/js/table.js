// The Blaze table page (and the replay viewer): renders a game from the server's view.
//
// Hooks for tests and assistive tech (keep them stable):
//   #status    game status and whose move it is      #prompt   what you may do now
//   #error     the last refused move's sentence       #ranking  final ranking (when finished)
//   #hand      your cards: <button data-card="R5" aria-pressed> (click, touch or keyboard)
//   #actions   move buttons: data-action="challenge" | "add" | "reject" | "pass" | "done"
//              | "bet" (with data-on, data-value); reject candidates: data-reject-index
//   #players   one <li data-seat> per seat;  #challenge  one <li data-index> per pair
//   #summary   round-end summary;  replay page: data-step="first|prev|next|last", #ply
//   .player__clock[data-clock-seat]  a seat's clock (timed games): time left, counting
//              down while it runs, and for correspondence the deadline in the viewer's
//              time zone (#table's data-timezone, the user's setting), or "paused (vacation)"
// Rules stay on the server: only moves listed in the view's `options` are offered, and
// every move is POSTed to /api/v1/games/{id}/moves; the page re-renders from each view.

const $ = (id) => document.getElementById(id);
// Django's JavaScriptCatalog when the page loads it; the English text otherwise.
const tr = (text) => (window.gettext ? window.gettext(text) : text);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const SUITS = { R: "red", Y: "yellow", B: "blue" };
const cardName = (card) => `${SUITS[card[0]]} ${card[1] === "F" ? "Firebird" : card[1]}`;
const cardEl = (card, tag = "span") => {
  const node = el(tag, { class: `card card--${card[0]}${card[1] === "F" ? " card--F" : ""}`,
    "data-card": card, title: cardName(card), "aria-label": cardName(card) }, card);
  return node;
};
const listText = (items) => items.length < 2 ? items.join("")
  : `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;

// ---- clocks ---------------------------------------------------------------------------
// The server sends each seat's clock as {seat, remaining (s), running, deadline (ISO, UTC),
// paused}; the page only counts the running ones down between views.
const formatLeft = (seconds) => {
  const s = Math.max(Math.floor(seconds), 0);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${String(m).padStart(2, "0")}m`;
  return `${m}:${String(sec).padStart(2, "0")}`;
};

function deadlineFormatter(timeZone) {
  const options = { weekday: "short", day: "numeric", month: "short", hour: "2-digit",
    minute: "2-digit", hourCycle: "h23", timeZone };
  try {
    return new Intl.DateTimeFormat("en-GB", options);
  } catch {  // an unknown zone name: read the deadline in UTC rather than not at all
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
  }
}

/** The text of one seat's clock, `elapsed` seconds after the view arrived. */
function clockText(clock, elapsed, correspondence, formatter) {
  if (clock.paused) return "paused (vacation)";
  const left = clock.running ? clock.remaining - elapsed : clock.remaining;
  let text = clock.running ? `${formatLeft(left)} left` : `${formatLeft(left)} on the clock`;
  if (correspondence && clock.running && clock.deadline) {
    const zone = formatter.resolvedOptions().timeZone;
    text += ` · due ${formatter.format(new Date(clock.deadline))} (${zone})`;
  }
  return text;
}

function renderBoard(view, names) {
  $("trump").replaceChildren(view.trump_card ? cardEl(view.trump_card) : "–");
  $("deck-size").textContent = view.deck_size ?? "–";
  $("round").textContent = view.round ?? "–";
  const phase = $("phase");
  if (phase) phase.textContent = view.stage === "bet" ? "betting" : view.phase === 1
    ? "1st phase: drawing" : view.phase === 2 ? "2nd phase: going out" : "";
  const ch = view.challenge || {};
  const roles = { [ch.active]: "attacks", [ch.target]: "defends", [ch.supporter]: "supports" };
  const players = $("players");
  players.replaceChildren();
  view.players.forEach((p, seat) => {
    const waited = (view.waiting_on || []).includes(seat);
    const li = el("li", { "data-seat": seat, class: `player${waited ? " player--to-move" : ""}` });
    const head = el("p", { class: "player__name" }, p.name);
    if (seat === view.you) head.append(el("span", { class: "badge" }, "you"));
    if (p.bot) head.append(el("span", { class: "badge" }, "bot"));
    if (p.abandoned) head.append(el("span", { class: "badge" }, tr("left the game")));
    if (waited) head.append(el("span", { class: "badge badge--turn" }, "to move"));
    li.append(head);
    const facts = [];
    const cards = p.hand_size ?? (view.hands ? view.hands[seat].length : null);
    if (cards !== null) facts.push(`${cards} card${cards === 1 ? "" : "s"}`);
    const feathers = p.feathers || [];
    facts.push(feathers.length ? `feathers ${feathers.join(" + ")}` : "no feathers");
    if (view.out && view.out[seat] && view.status !== "finished") facts.push("out of the round");
    else if (ch.active !== undefined && roles[seat] && view.status === "playing") facts.push(roles[seat]);
    const bet = view.bets ? view.bets[seat] : null;
    if (bet && "on" in bet) facts.push(`bet on ${names[bet.on]}${"value" in bet ? ` (${bet.value})` : ""}`);
    else if (bet) facts.push("has bet");
    li.append(el("p", { class: "player__facts" }, facts.join(" · ")));
    if (view.clocks && view.status === "playing") {
      li.append(el("p", { class: "player__clock", "data-clock-seat": seat }));
    }
    if (view.hands) {
      const hand = el("p", { class: "player__hand" });
      view.hands[seat].forEach((c) => hand.append(cardEl(c)));
      li.append(hand);
    }
    players.append(li);
  });
  const pairs = $("challenge");
  pairs.replaceChildren();
  (view.table || []).forEach((pair, i) => {
    const li = el("li", { "data-index": i, class: "pair" });
    const stack = el("span", { class: "pair__cards" });
    stack.append(cardEl(pair.card));
    stack.append(pair.rejected_by ? cardEl(pair.rejected_by)
      : el("span", { class: "card card--empty", "aria-label": "not rejected" }, "?"));
    li.append(stack, el("span", { class: "pair__by" }, `by ${names[pair.by]}`));
    pairs.append(li);
  });
  const empty = $("challenge-empty");
  if (empty) {
    empty.hidden = (view.table || []).length > 0;
    empty.textContent = ch.passed ? "" : ch.active !== undefined && view.status === "playing"
      ? `${names[ch.active]} opens the next challenge against ${names[ch.target]}.` : "No cards on the table.";
  }
  if (ch.passed) $("challenge").append(el("li", { class: "pair pair--note" }, `${names[ch.target]} passed and takes these cards.`));
  // The site's order: players who left the game rank last, whatever their bot scored.
  const order = view.final_ranking || view.ranking;
  const ranking = $("ranking");
  ranking.hidden = !order;
  ranking.replaceChildren(...(order || []).map((s, place) =>
    el("li", {}, `${names[s]}${seat0(view, s)}: ${view.scores[s]} points${
      view.players[s].abandoned ? ` (${tr("left the game: ranks last")})` : place === 0 ? " (winner)" : ""}`)));
  const rankingTitle = $("ranking-title");
  if (rankingTitle) rankingTitle.hidden = !view.ranking;
}
const seat0 = (view, s) => (s === view.you ? " (you)" : "");

// ---- the live table ------------------------------------------------------------------
function tablePage(root) {
  const gameId = root.dataset.game;
  const csrf = root.dataset.csrf;
  let view = JSON.parse($("game-view").textContent);
  let picked = new Set();        // indices into the hand, for challenge/add
  let rejectPick = {};           // challenge index -> card
  let lastRounds = view.round_losers.length;
  const deadlines = deadlineFormatter(root.dataset.timezone || "UTC");
  let viewArrived = performance.now();

  // Between views only the running clocks change: count them down once a second.
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

  const names = () => view.players.map((p) => p.name);
  const showError = (text) => { $("error").hidden = !text; $("error").textContent = text || ""; };

  async function fetchView() {
    const r = await fetch(`/api/v1/games/${gameId}`, { credentials: "same-origin" });
    if (r.ok) render(await r.json());
    return r.ok;
  }

  let busy = false;              // a move is on its way: no second one meanwhile
  async function send(move) {
    const focused = focusedSelector();
    busy = true;
    root.setAttribute("aria-busy", "true");
    render(view);
    try { await post(move); } finally {
      busy = false;
      root.removeAttribute("aria-busy");
      render(view);
      // keep keyboard players on the same button, or on the first move now on offer
      if (focused && document.activeElement === document.body) {
        (root.querySelector(focused) || root.querySelector("#actions button:enabled, #hand button:enabled"))?.focus();
      }
    }
  }

  async function post(move, retried = false) {
    showError("");
    let r;
    try {
      r = await fetch(`/api/v1/games/${gameId}/moves`, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf },
        body: JSON.stringify({ seq: view.seq, move }),
      });
    } catch {
      showError("The server cannot be reached: check your connection and try again.");
      return;
    }
    const body = await r.json().catch(() => ({}));
    if (r.ok) render(body);
    else if (r.status === 409) {
      // Bets are placed at the same time as the bots': someone else's bet is no reason to
      // ask again, so a bet still on offer is sent once more at the new seq.
      await fetchView();
      if (move.move === "bet" && !retried && view.options?.bet) return post(move, true);
      showError("The game moved on before your move arrived: here is the current position.");
    } else if (r.status === 403) showError(body.error || "You are not playing at this table.");
    else showError(body.error || `The move was refused (${r.status}).`);
  }

  function button(text, attrs, onClick) {
    const b = el("button", { type: "button", class: "button", ...attrs }, text);
    b.addEventListener("click", onClick);
    return b;
  }

  // Re-rendering replaces the buttons: keep the keyboard focus on the same one.
  function focusedSelector() {
    const a = document.activeElement;
    if (!a || !root.contains(a) || a.tagName !== "BUTTON") return null;
    const attrs = ["data-action", "data-card", "data-reject-index", "data-on", "data-value"]
      .filter((k) => a.hasAttribute(k)).map((k) => `[${k}="${a.getAttribute(k)}"]`).join("");
    return attrs ? `#${a.parentElement.id || "actions"} ${attrs}` : null;
  }

  function render(next) {
    if (next.seq < view.seq) return;
    const focused = focusedSelector();
    if (next.seq !== view.seq) { picked = new Set(); rejectPick = {}; }
    view = next;
    viewArrived = performance.now();
    root.dataset.seq = view.seq;
    const n = names();
    const opts = view.options || {};
    const myTurn = !!view.options;
    document.title = `${myTurn ? "Your turn · " : ""}Table ${gameId} · Blaze`;
    const waiting = listText((view.waiting_on || []).filter((s) => s !== view.you).map((s) => n[s]));
    let status = view.status;
    if (view.status === "playing") status = myTurn ? `Your turn${waiting ? ` (and ${waiting})` : ""}`
      : `Waiting on ${waiting}`;
    else if (view.status === "finished") status = "Finished";
    else if (view.status === "waiting") status = `Waiting for players (${view.players.filter((p) => !p.open).length} of ${view.players.length} seated)`;
    else if (view.status === "aborted") status = "This game was aborted";
    $("status").textContent = status;
    root.classList.toggle("table--my-turn", myTurn);
    renderBoard(view, n);
    tickClocks();
    if (view.status !== "waiting" && $("waiting-actions")) $("waiting-actions").hidden = true;

    // my hand: cards become selectable only when a challenge or an add is on offer
    const hand = $("hand");
    hand.replaceChildren();
    const selectable = new Set([...(opts.challenge || []), ...(opts.add || [])]);
    hand.classList.toggle("hand--picking", selectable.size > 0);
    (view.hand || []).forEach((card, i) => {
      const b = cardEl(card, "button");
      b.type = "button";
      b.setAttribute("aria-pressed", picked.has(i) ? "true" : "false");
      b.disabled = !selectable.has(card);
      b.addEventListener("click", () => { picked.has(i) ? picked.delete(i) : picked.add(i); render(view); });
      hand.append(b);
    });
    if (view.you !== null && !(view.hand || []).length && view.status === "playing") hand.append(el("p", {}, "No cards in your hand."));
    $("hand-section").hidden = view.you === null || view.status === "waiting";

    // moves: only those in options
    const actions = $("actions");
    actions.replaceChildren();
    const pickedCards = () => [...picked].map((i) => view.hand[i]);
    const ch = view.challenge || {};
    let prompt = "";
    if (view.status === "playing" && !myTurn) prompt = `Waiting on ${waiting}.`;
    if (opts.challenge) {
      prompt = `Your turn: challenge ${n[ch.target]}. Pick 1 to ${opts.limit} cards of one rank, then press Challenge.`;
      actions.append(button(picked.size ? `Challenge with ${listText(pickedCards())}` : "Challenge",
        { "data-action": "challenge", ...(picked.size ? {} : { disabled: "" }) },
        () => send({ move: "challenge", cards: pickedCards() })));
    }
    if (opts.reject) {
      prompt = "Your turn: reject every card or pass (then you take all the cards on the table).";
      for (const [index, cards] of Object.entries(opts.reject)) {
        const row = el("div", { class: "reject-row", "data-reject-row": index });
        row.append(el("span", {}, "Reject "), cardEl(view.table[index].card), el("span", {}, " with "));
        cards.forEach((card) => {
          const b = cardEl(card, "button");
          b.type = "button";
          b.dataset.rejectIndex = index;
          b.setAttribute("aria-pressed", rejectPick[index] === card ? "true" : "false");
          b.setAttribute("aria-label", `reject ${cardName(view.table[index].card)} with ${cardName(card)}`);
          b.addEventListener("click", () => {
            if (rejectPick[index] === card) delete rejectPick[index];
            else {  // a card rejects one challenge card only
              for (const [i, c] of Object.entries(rejectPick)) if (c === card && view.hand.filter((h) => h === card).length < 2) delete rejectPick[i];
              rejectPick[index] = card;
            }
            render(view);
          });
          row.append(b);
        });
        actions.append(row);
      }
      const complete = Object.keys(rejectPick).length === Object.keys(opts.reject).length;
      actions.append(button("Reject", { "data-action": "reject", ...(complete ? {} : { disabled: "" }) }, () => send({
        move: "reject", pairs: Object.entries(rejectPick).map(([i, c]) => [Number(i), c]) })));
    }
    if (opts.pass) actions.append(button("Pass and take the cards", { "data-action": "pass", class: "button button--secondary" }, () => send({ move: "pass" })));
    if (opts.add) {
      prompt = `Your turn: add cards of a value already on the table (up to ${opts.limit} more), or press Done.`;
      actions.append(button(picked.size ? `Add ${listText(pickedCards())}` : "Add",
        { "data-action": "add", ...(picked.size ? {} : { disabled: "" }) },
        () => send({ move: "add", cards: pickedCards() })));
    } else if (opts.done) prompt = "Your turn: nothing more to add, press Done.";
    if (opts.done) actions.append(button("Done", { "data-action": "done", class: "button button--secondary" }, () => send({ move: "done" })));
    if (opts.bet) {
      prompt = "Your turn: bet on who loses this round. A bet of 1 scores for you if they lose, for them if not; 0 scores nothing.";
      for (const on of opts.bet.on) {
        const row = el("div", { class: "bet-row" }, `On ${n[on]}: `);
        for (const value of opts.bet.values) row.append(button(`bet ${value}`,
          { "data-action": "bet", "data-on": on, "data-value": value, "aria-label": `bet ${value} on ${n[on]}` },
          () => send({ move: "bet", on, value })));
        actions.append(row);
      }
    }
    const order = view.final_ranking || view.ranking;
    if (view.status === "finished" && order) {
      prompt = view.you !== null && view.players[view.you].abandoned
        ? tr("The game is over: you left it, so you rank last.")
        : `The game is over: ${order[0] === view.you ? "you win!" : `${n[order[0]]} wins.`}`;
    }
    $("prompt").textContent = prompt;
    $("prompt").hidden = !prompt;

    // round-end summary: who lost, the bets revealed, the scores
    const summary = $("summary");
    if (view.round_losers.length > 0) {
      summary.hidden = false;
      summary.replaceChildren(el("h2", { tabindex: "-1", id: "summary-title" }, "Rounds"));
      view.round_losers.forEach((loser, r) => {
        const bets = (view.past_bets[r] || []).map((b, s) => `${n[s]} bet ${b.value} on ${n[b.on]}`);
        summary.append(el("p", {}, `Round ${r + 1}: ${n[loser]} lost. Bets: ${bets.join("; ")}.`));
      });
      summary.append(el("p", {}, `Scores: ${view.scores.map((s, i) => `${n[i]} ${s}`).join(", ")}.`));
      if (view.round_losers.length !== lastRounds) $("summary-title").focus();
    }
    lastRounds = view.round_losers.length;
    $("after-game").hidden = view.status !== "finished";
    if (busy) root.querySelectorAll("#actions button, #hand button").forEach((b) => { b.disabled = true; });
    if (focused && !document.activeElement?.closest?.("#table button")) root.querySelector(focused)?.focus();
  }

  // live updates: each message is this user's own view; a gap in seq means resync
  let delay = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}/`);
    ws.onopen = () => { delay = 1000; $("offline").hidden = true; };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type !== "view") return;
      if (msg.seq > view.seq + 1) fetchView();
      else render(msg.view);
    };
    ws.onclose = () => {
      $("offline").hidden = false;
      setTimeout(() => { fetchView(); connect(); }, delay);
      delay = Math.min(delay * 2, 30000);
    };
  }
  render(view);
  connect();
  setInterval(tickClocks, 1000);
}

// ---- the replay viewer -----------------------------------------------------------------
/** A move of the log in words, e.g. "b challenges with red 5 and blue 5". */
function describeMove(move, names) {
  const who = names[move.seat] ?? `seat ${move.seat}`;
  const cards = (list) => listText((list || []).map(cardName));
  switch (move.move) {
    case "challenge": return `${who} challenges with ${cards(move.cards)}.`;
    case "add": return `${who} adds ${cards(move.cards)}.`;
    case "reject": return `${who} rejects: ${listText((move.pairs || []).map(([, c]) => cardName(c)))}.`;
    case "pass": return `${who} passes and takes the cards.`;
    case "done": return `${who} is done.`;
    case "bet": return `${who} bets ${move.value} on ${names[move.on] ?? `seat ${move.on}`}.`;
    default: return `${who}: ${move.move}.`;
  }
}

/** The whole replay, fetched a page at a time (the server sends at most 500 plies a page). */
async function fetchReplay(gameId) {
  let data = null;
  for (let start = 0; start !== null;) {
    const r = await fetch(`/api/v1/games/${gameId}/replay?start=${start}`, { credentials: "same-origin" });
    if (!r.ok) return null;
    const page = await r.json();
    if (data === null) data = page;
    else { data.moves.push(...page.moves); data.views.push(...page.views); }
    start = page.next;
  }
  return data;
}

async function replayPage(root) {
  const data = await fetchReplay(root.dataset.game);
  if (data === null) { $("ply").textContent = "This replay is not available."; return; }
  let ply = 0;
  const show = () => {
    const frame = data.views[ply];
    const players = data.players.map((name, seat) => ({ name, hand_size: frame.hands[seat].length, feathers: frame.feathers[seat] }));
    renderBoard({ ...frame, players, you: null }, data.players);
    $("ply").textContent = `move ${ply} of ${data.moves.length}`;
    const move = ply > 0 ? data.moves[ply - 1] : null;
    $("last-move").textContent = move ? describeMove(move, data.players) : "The deal.";
  };
  const steps = { first: () => 0, prev: () => Math.max(0, ply - 1), next: () => Math.min(data.moves.length, ply + 1), last: () => data.moves.length };
  root.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => { ply = steps[b.dataset.step](); show(); }));
  document.addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") { ply = steps.next(); show(); }
    if (e.key === "ArrowLeft") { ply = steps.prev(); show(); }
  });
  show();
}

if ($("table")) tablePage($("table"));
if ($("replay")) replayPage($("replay"));
