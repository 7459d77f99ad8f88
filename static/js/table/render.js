// The board, drawn from a view: seats around the table (the viewer at the bottom), each
// opponent's hand as card backs with a count, role, feathers, bet marker and clock; the
// deck and trump card; the challenge pairs in the middle. Shared by the table and replay.
import { cardBack, cardEl, el } from "./cards.js";
import { fmt, gettext, listText, ngettext } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export const ROLE = () => ({ attacks: gettext("attacks"), defends: gettext("defends"),
  supports: gettext("supports") });

/** Seats in drawing order: clockwise from the viewer's left; the viewer (or seat 0) last. */
export function seatOrder(n, bottom) {
  const order = [];
  for (let k = 1; k <= n; k++) order.push((bottom + k) % n);
  return order;
}

function roleOf(view, seat) {
  const ch = view.challenge;
  if (!ch || view.status !== "playing") return null;
  if (ch.active === seat) return "attacks";
  if (ch.target === seat) return "defends";
  if (ch.supporter === seat) return "supports";
  return null;
}

function seatEl(view, seat, names, bottom) {
  const p = view.players[seat];
  const waited = (view.waiting_on || []).includes(seat);
  const mine = seat === view.you;
  const li = el("li", { "data-seat": seat, class: `player${waited ? " player--to-move" : ""}`
    + `${seat === bottom ? " player--bottom" : ""}${mine ? " player--me" : ""}` });
  const head = el("p", { class: "player__name" }, p.name);
  if (mine) head.append(el("span", { class: "badge" }, gettext("you")));
  if (p.bot) head.append(el("span", { class: "badge" }, gettext("bot")));
  if (p.abandoned) head.append(el("span", { class: "badge" }, gettext("left the game")));
  if (waited) head.append(el("span", { class: "badge badge--turn" }, gettext("to move")));
  li.append(head);

  const facts = el("p", { class: "player__facts" });
  const count = p.hand_size ?? (view.hands ? view.hands[seat].length : null);
  if (count !== null && !view.hands && !mine) {
    const backs = el("span", { class: "player__backs", "aria-hidden": "true" });
    for (let i = 0; i < Math.min(count, 8); i++) backs.append(cardBack());
    li.append(backs);
  }
  if (count !== null) facts.append(el("span", { class: "fact fact--cards" },
    fmt(ngettext("%(n)s card", "%(n)s cards", count), { n: count })));
  const role = roleOf(view, seat);
  if (view.out && view.out[seat] && view.status === "playing") {
    facts.append(el("span", { class: "fact fact--out" }, gettext("out of the round")));
  } else if (role) facts.append(el("span", { class: `fact fact--role fact--${role}` }, ROLE()[role]));
  const feathers = p.feathers || [];
  facts.append(el("span", { class: "fact fact--feathers" }, feathers.length
    ? fmt(ngettext("feather %(list)s", "feathers %(list)s", feathers.length), { list: feathers.join(" + ") })
    : gettext("no feathers")));
  const bet = view.bets ? view.bets[seat] : null;
  if (bet && "on" in bet) {
    facts.append(el("span", { class: "fact fact--bet" }, "value" in bet
      ? fmt(gettext("bet %(value)s on %(on)s"), { value: bet.value, on: names[bet.on] })
      : fmt(gettext("bet on %(on)s"), { on: names[bet.on] })));
  } else if (bet) facts.append(el("span", { class: "fact fact--bet" }, gettext("has bet")));
  li.append(facts);
  if (view.clocks && view.status === "playing") {
    li.append(el("p", { class: "player__clock", "data-clock-seat": seat }));
  }
  if (view.hands) {
    const hand = el("p", { class: "player__hand" });
    view.hands[seat].forEach((c) => hand.append(cardEl(c, { trump: view.trump, small: true })));
    li.append(hand);
  }
  return li;
}

export function renderBoard(view, names) {
  const bottom = view.you ?? 0;
  $("trump").replaceChildren(view.trump_card ? cardEl(view.trump_card, { trump: view.trump, small: true }) : "–");
  const deck = $("deck");
  if (deck) {
    deck.replaceChildren();
    for (let i = 0; i < Math.min(view.deck_size || 0, 4); i++) deck.append(cardBack());
  }
  $("deck-size").textContent = view.deck_size === null || view.deck_size === undefined ? "–"
    : fmt(ngettext("%(n)s card in the deck", "%(n)s cards in the deck", view.deck_size), { n: view.deck_size });
  const phase = view.stage === "bet" ? gettext("betting") : view.phase === 1
    ? gettext("1st phase: drawing") : view.phase === 2 ? gettext("2nd phase: going out") : "";
  $("round").textContent = view.round ? fmt(gettext("Round %(round)s of 2"), { round: view.round }) : "";
  if ($("phase")) $("phase").textContent = phase;

  const order = seatOrder(view.players.length, bottom);
  const players = $("players");
  players.replaceChildren(...order.slice(0, -1).map((s) => seatEl(view, s, names, bottom)));
  players.dataset.seats = view.players.length;
  $("seat-bottom").replaceChildren(seatEl(view, bottom, names, bottom));

  const ch = view.challenge || {};
  const pairs = $("challenge");
  pairs.replaceChildren();
  (view.table || []).forEach((pair, i) => {
    const li = el("li", { "data-index": i, "data-by": pair.by, "data-target": ch.target, class: `pair${pair.rejected_by ? " pair--rejected" : ""}` });
    const stack = el("span", { class: "pair__cards" });
    stack.append(cardEl(pair.card, { trump: view.trump }));
    stack.append(pair.rejected_by ? cardEl(pair.rejected_by, { trump: view.trump })
      : el("span", { class: "card card--empty" }, gettext("open")));
    li.append(stack, el("span", { class: "pair__by" }, fmt(gettext("by %(who)s"), { who: names[pair.by] })));
    pairs.append(li);
  });
  const empty = $("challenge-empty");
  if (empty) {
    empty.hidden = (view.table || []).length > 0;
    empty.textContent = ch.active !== undefined && view.status === "playing"
      ? fmt(gettext("%(active)s opens the next challenge against %(target)s."),
        { active: names[ch.active], target: names[ch.target] })
      : gettext("No cards on the table.");
  }
  if (ch.passed && (view.table || []).length) {
    pairs.append(el("li", { class: "pair pair--note", "data-passed-target": ch.target },
      fmt(gettext("%(who)s passed and takes these cards."), { who: names[ch.target] })));
  }
  renderRanking(view, names);
}

/** Per round and player: feathers, bet points, round total (from the public view). */
export function roundScores(view, r) {
  const n = view.players.length;
  const loser = view.round_losers[r];
  const feathers = (view.round_feathers[r] || []).map((f) => f.reduce((a, b) => a + b, 0));
  const betPoints = new Array(n).fill(0);
  (view.past_bets[r] || []).forEach((b, s) => { betPoints[b.on === loser ? s : b.on] += b.value; });
  return [...Array(n).keys()].map((s) => ({ seat: s, feathers: feathers[s] || 0,
    bet: view.past_bets[r]?.[s] || null, betPoints: betPoints[s], total: (feathers[s] || 0) + betPoints[s] }));
}

/** The round summary table: who lost, every bet revealed, feathers and bet points. */
export function roundTable(view, names, r) {
  const table = el("table", { class: "table score-table" });
  table.append(el("caption", {}, fmt(gettext("Round %(round)s: %(loser)s lost the round"),
    { round: r + 1, loser: names[view.round_losers[r]] })));
  const head = el("tr");
  for (const h of [gettext("Player"), gettext("Feathers"), gettext("Bet"), gettext("Bet points"), gettext("Round total")]) {
    head.append(el("th", { scope: "col" }, h));
  }
  const thead = el("thead");
  thead.append(head);
  table.append(thead);
  const body = el("tbody");
  for (const row of roundScores(view, r)) {
    const tr = el("tr");
    tr.append(el("th", { scope: "row" }, names[row.seat]),
      el("td", {}, String(row.feathers)),
      el("td", {}, row.bet ? fmt(gettext("%(value)s on %(on)s"), { value: row.bet.value, on: names[row.bet.on] }) : "–"),
      el("td", {}, String(row.betPoints)), el("td", {}, String(row.total)));
    body.append(tr);
  }
  table.append(body);
  return table;
}

function renderRanking(view, names) {
  const ranking = $("ranking");
  if (!ranking) return;
  // The site's order: players who left the game rank last, whatever their bot scored.
  const order = view.final_ranking || view.ranking;
  ranking.hidden = !order;
  const title = $("ranking-title");
  if (title) title.hidden = !order;
  ranking.replaceChildren(...(order || []).map((s, place) => el("li", {},
    fmt(ngettext("%(who)s: %(n)s point", "%(who)s: %(n)s points", view.scores[s]),
      { who: names[s] + (s === view.you ? ` (${gettext("you")})` : ""), n: view.scores[s] })
    + (view.players[s]?.abandoned ? ` (${gettext("left the game: ranks last")})`
      : place === 0 ? ` (${gettext("winner")})` : ""))));
  const breakdown = $("breakdown");
  if (breakdown) {
    breakdown.hidden = !view.ranking;
    breakdown.replaceChildren();
    if (view.ranking) view.round_losers.forEach((_, r) => breakdown.append(roundTable(view, names, r)));
  }
}

export const statusText = (view, names) => {
  const waiting = listText((view.waiting_on || []).filter((s) => s !== view.you).map((s) => names[s]));
  if (view.status === "playing") {
    if (view.options) return waiting ? fmt(gettext("Your turn (and %(others)s)"), { others: waiting }) : gettext("Your turn");
    return fmt(gettext("Waiting on %(who)s"), { who: waiting });
  }
  if (view.status === "finished") return gettext("Finished");
  if (view.status === "waiting") {
    const seated = view.players.filter((p) => !p.open).length;
    return fmt(gettext("Waiting for players (%(seated)s of %(seats)s seated)"), { seated, seats: view.players.length });
  }
  if (view.status === "aborted") return gettext("This game was aborted");
  return view.status;
};
