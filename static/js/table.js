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
// Rules stay on the server: only moves listed in the view's `options` are offered, and
// every move is POSTed to /api/v1/games/{id}/moves; the page re-renders from each view.

const $ = (id) => document.getElementById(id);
const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};
const cardEl = (card, tag = "span") =>
  el(tag, { class: `card card--${card[1] === "F" ? "F" : card[0]} card--${card[0]}`, "data-card": card }, card);

function renderBoard(view, names) {
  $("trump").replaceChildren(view.trump_card ? cardEl(view.trump_card) : "–");
  $("deck-size").textContent = view.deck_size ?? "–";
  $("round").textContent = view.round ?? "–";
  const players = $("players");
  players.replaceChildren();
  view.players.forEach((p, seat) => {
    const bet = view.bets ? view.bets[seat] : null;
    let betText = "";
    if (bet && "on" in bet) betText = ` · bet on ${names[bet.on]}${"value" in bet ? ` (${bet.value})` : ""}`;
    else if (bet) betText = " · bet placed";
    const waited = (view.waiting_on || []).includes(seat) ? " · to move" : "";
    const you = seat === view.you ? " (you)" : "";
    const cards = p.hand_size ?? (view.hands ? view.hands[seat].length : "–");
    const li = el("li", { "data-seat": seat },
      `${p.name}${p.bot ? " [bot]" : ""}${you}: ${cards} cards · feathers ${JSON.stringify(p.feathers || [])}${betText}${waited}`);
    if (view.hands) { li.append(" "); view.hands[seat].forEach((c) => li.append(cardEl(c), " ")); }
    players.append(li);
  });
  const pairs = $("challenge");
  pairs.replaceChildren();
  (view.table || []).forEach((pair, i) => {
    const li = el("li", { "data-index": i });
    li.append(cardEl(pair.card), ` by ${names[pair.by]} `);
    li.append(pair.rejected_by ? cardEl(pair.rejected_by) : el("span", {}, "not rejected"));
    pairs.append(li);
  });
  const ranking = $("ranking");
  ranking.hidden = !view.ranking;
  ranking.replaceChildren(...(view.ranking || []).map((s) =>
    el("li", {}, `${names[s]}: ${view.scores[s]} points`)));
}

// ---- the live table ------------------------------------------------------------------
function tablePage(root) {
  const gameId = root.dataset.game;
  const csrf = root.dataset.csrf;
  let view = JSON.parse($("game-view").textContent);
  let picked = new Set();        // indices into the hand, for challenge/add
  let rejectPick = {};           // challenge index -> card
  let lastRounds = view.round_losers.length;

  const names = () => view.players.map((p) => p.name);
  const showError = (text) => { $("error").hidden = !text; $("error").textContent = text || ""; };

  async function fetchView() {
    const r = await fetch(`/api/v1/games/${gameId}`, { credentials: "same-origin" });
    if (r.ok) render(await r.json());
    return r.ok;
  }

  async function send(move, retried = false) {
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
      if (move.move === "bet" && !retried && view.options?.bet) return send(move, true);
      showError("The game moved on before your move arrived: here is the current position.");
    } else if (r.status === 403) showError(body.error || "You are not playing at this table.");
    else showError(body.error || `The move was refused (${r.status}).`);
  }

  function button(text, attrs, onClick) {
    const b = el("button", { type: "button", class: "button button--small", ...attrs }, text);
    b.addEventListener("click", onClick);
    return b;
  }

  function render(next) {
    if (next.seq < view.seq) return;
    if (next.seq !== view.seq) { picked = new Set(); rejectPick = {}; }
    view = next;
    root.dataset.seq = view.seq;
    const n = names();
    const opts = view.options || {};
    const myTurn = !!view.options;
    document.title = `${myTurn ? "Your turn · " : ""}Table ${gameId} · Blaze`;
    const waiting = (view.waiting_on || []).map((s) => n[s]).join(", ");
    $("status").textContent = view.status === "playing" ? `Playing · waiting on ${waiting}`
      : view.status === "finished" ? "Finished" : view.status === "waiting"
      ? `Waiting for players (${view.players.filter((p) => !p.open).length}/${view.players.length})` : view.status;
    renderBoard(view, n);
    if (view.status !== "waiting" && $("waiting-actions")) $("waiting-actions").hidden = true;

    // prompt and actions, only from options
    const hand = $("hand");
    hand.replaceChildren();
    const selectable = new Set([...(opts.challenge || []), ...(opts.add || [])]);
    (view.hand || []).forEach((card, i) => {
      const b = cardEl(card, "button");
      b.type = "button";
      b.setAttribute("aria-pressed", picked.has(i) ? "true" : "false");
      b.disabled = !selectable.has(card);
      b.addEventListener("click", () => { picked.has(i) ? picked.delete(i) : picked.add(i); render(view); });
      hand.append(b);
    });
    const actions = $("actions");
    actions.replaceChildren();
    const pickedCards = () => [...picked].map((i) => view.hand[i]);
    let prompt = myTurn ? "" : (view.status === "playing" ? `Waiting on ${waiting}.` : "");
    if (opts.challenge) {
      prompt = `Your challenge: pick up to ${opts.limit} cards of one rank.`;
      actions.append(button("Challenge", { "data-action": "challenge" },
        () => send({ move: "challenge", cards: pickedCards() })));
    }
    if (opts.reject) {
      prompt = "Reject every challenge card with a distinct card, or pass and take them.";
      for (const [index, cards] of Object.entries(opts.reject)) {
        const row = el("p", { "data-reject-row": index }, `Card ${Number(index) + 1} (${view.table[index].card}): `);
        cards.forEach((card) => {
          const b = button(card, { "data-reject-index": index, "data-card": card,
            "aria-pressed": rejectPick[index] === card ? "true" : "false" },
            () => { rejectPick[index] = card; render(view); });
          row.append(b, " ");
        });
        actions.append(row);
      }
      actions.append(button("Reject", { "data-action": "reject" }, () => send({
        move: "reject", pairs: Object.entries(rejectPick).map(([i, c]) => [Number(i), c]) })));
    }
    if (opts.pass) actions.append(button("Pass and take the cards", { "data-action": "pass" }, () => send({ move: "pass" })));
    if (opts.add) {
      prompt = `Add up to ${opts.limit} cards matching the table, or say done.`;
      actions.append(button("Add", { "data-action": "add" }, () => send({ move: "add", cards: pickedCards() })));
    } else if (opts.done) prompt = "Nothing more to add: say done.";
    if (opts.done) actions.append(button("Done", { "data-action": "done" }, () => send({ move: "done" })));
    if (opts.bet) {
      prompt = "Bet on who loses this round: 1 card or 0.";
      for (const on of opts.bet.on) for (const value of opts.bet.values) {
        actions.append(button(`Bet ${value} on ${n[on]}`,
          { "data-action": "bet", "data-on": on, "data-value": value },
          () => send({ move: "bet", on, value })));
      }
    }
    if (view.status === "finished") prompt = "The game is over.";
    $("prompt").textContent = prompt;

    // round-end summary
    const summary = $("summary");
    if (view.round_losers.length > 0) {
      summary.hidden = false;
      summary.replaceChildren(el("h2", {}, "Rounds"));
      view.round_losers.forEach((loser, r) => {
        const bets = (view.past_bets[r] || []).map((b, s) => `${n[s]} bet ${b.value} on ${n[b.on]}`);
        summary.append(el("p", {}, `Round ${r + 1}: ${n[loser]} lost. ${bets.join("; ")}.`));
      });
      summary.append(el("p", {}, `Scores: ${view.scores.map((s, i) => `${n[i]} ${s}`).join(", ")}`));
      if (view.round_losers.length !== lastRounds) summary.focus?.();
    }
    lastRounds = view.round_losers.length;
    $("after-game").hidden = view.status !== "finished";
  }

  // live updates: each message is this user's own view; a gap in seq means resync
  let delay = 1000;
  function connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/games/${gameId}/`);
    ws.onopen = () => { delay = 1000; };
    ws.onmessage = (event) => {
      const msg = JSON.parse(event.data);
      if (msg.type !== "view") return;
      if (msg.seq > view.seq + 1) fetchView();
      else render(msg.view);
    };
    ws.onclose = () => { setTimeout(() => { fetchView(); connect(); }, delay); delay = Math.min(delay * 2, 30000); };
  }
  render(view);
  connect();
}

// ---- the replay viewer -----------------------------------------------------------------
async function replayPage(root) {
  const r = await fetch(`/api/v1/games/${root.dataset.game}/replay`, { credentials: "same-origin" });
  if (!r.ok) { $("ply").textContent = "This replay is not available."; return; }
  const data = await r.json();
  let ply = 0;
  const show = () => {
    const frame = data.views[ply];
    const players = data.players.map((name, seat) => ({ name, hand_size: frame.hands[seat].length, feathers: frame.feathers[seat] }));
    renderBoard({ ...frame, players, you: null }, data.players);
    $("ply").textContent = `move ${ply} of ${data.moves.length}`;
    const move = ply > 0 ? data.moves[ply - 1] : null;
    $("last-move").textContent = move ? `${data.players[move.seat]}: ${JSON.stringify({ ...move, seat: undefined })}` : "The deal.";
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
