// Your hand and your moves. Only the moves in the view's `options` are offered (the rules
// stay on the server); every move is POSTed to /api/v1/games/{id}/moves.
//
// Keyboard: arrows (and Home/End) move in the hand, Space picks a card, Enter plays (it
// picks the focused card first when needed), P passes, D is done. Card buttons stay
// focusable while they cannot be played (aria-disabled), so focus stays in the hand
// across re-renders.
import { cardEl, cardName, el } from "./cards.js";
import { fmt, gettext, listText, ngettext, pageLanguage } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const rank = (card) => card[1];

export function createActions({ root, gameId, csrf, getView, render, fetchView, showError }) {
  let picked = new Set();      // hand indices picked for a challenge or an add
  let rejectPick = {};         // challenge index -> hand index
  let focusIndex = 0;          // the hand card that holds the roving tab stop
  let busy = false;
  let seqShown = -1;

  const view = () => getView();
  const opts = () => view().options || {};
  const hand = () => view().hand || [];
  const unrejected = () => Object.keys(opts().reject || {}).map(Number);
  const currentRejectIndex = () => unrejected().find((i) => !(i in rejectPick));

  function selectableIndices() {
    const o = opts();
    const h = hand();
    const result = new Set();
    if (o.challenge) {
      const first = [...picked][0];
      h.forEach((c, i) => {
        if (!o.challenge.includes(c)) return;
        if (first !== undefined && rank(h[first]) !== rank(c)) return;
        if (!picked.has(i) && picked.size >= o.limit) return;
        result.add(i);
      });
    } else if (o.add) {
      h.forEach((c, i) => {
        if (o.add.includes(c) && (picked.has(i) || picked.size < o.limit)) result.add(i);
      });
    } else if (o.reject) {
      const used = new Set(Object.values(rejectPick));
      used.forEach((i) => result.add(i));
      const index = currentRejectIndex();
      if (index !== undefined) {
        h.forEach((c, i) => { if (!used.has(i) && o.reject[index].includes(c)) result.add(i); });
      }
    }
    return result;
  }

  function toggle(i) {
    const o = opts();
    if (o.reject) {
      const at = Object.entries(rejectPick).find(([, h]) => h === i);
      if (at) delete rejectPick[at[0]];
      else {
        const index = currentRejectIndex();
        if (index !== undefined && o.reject[index].includes(hand()[i])) rejectPick[index] = i;
      }
    } else if (picked.has(i)) picked.delete(i);
    else picked.add(i);
    focusIndex = i;
    render();
  }

  /** The move the picked cards make now, or null when it is not complete. */
  function pendingMove() {
    const o = opts();
    const h = hand();
    if (o.reject) {
      if (unrejected().some((i) => !(i in rejectPick))) return null;
      return { move: "reject", pairs: Object.entries(rejectPick).map(([i, hi]) => [Number(i), h[hi]]) };
    }
    if (!picked.size) return null;
    const cards = [...picked].sort((a, b) => a - b).map((i) => h[i]);
    if (o.challenge) return { move: "challenge", cards };
    if (o.add) return { move: "add", cards };
    return null;
  }

  async function send(move) {
    if (busy) return;
    busy = true;
    root.setAttribute("aria-busy", "true");
    render();
    try { await post(move); } finally {
      busy = false;
      root.removeAttribute("aria-busy");
      render();
    }
  }

  async function post(move, retried = 0) {
    showError("");
    let r;
    try {
      r = await fetch(`/api/v1/games/${gameId}/moves`, {
        method: "POST", credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrf, ...pageLanguage() },
        body: JSON.stringify({ seq: view().seq, move }),
      });
    } catch {
      showError(gettext("The server cannot be reached: check your connection and try again."));
      return;
    }
    const body = await r.json().catch(() => ({}));
    if (r.ok) render(body);
    else if (r.status === 409) {
      // Bets are placed at the same time as the others' (up to four at once): someone
      // else's bet is no reason to ask again, so a bet still on offer is sent again at
      // the new seq (API.md answers any other seq 409).
      await fetchView();
      if (move.move === "bet" && retried < 4 && view().options?.bet) {
        return post(move, retried + 1);
      }
      showError(gettext("The game moved on before your move arrived: here is the current position."));
    } else if (r.status === 403) showError(body.error || gettext("You are not playing at this table."));
    else showError(body.error || fmt(gettext("The move was refused (%(status)s)."), { status: r.status }));
  }

  function button(text, attrs, onClick) {
    const b = el("button", { type: "button", class: "button", ...attrs }, text);
    b.addEventListener("click", () => { if (b.getAttribute("aria-disabled") !== "true") onClick(); });
    return b;
  }

  /** Enter on a hand card: pick it when that helps, then play if the move is complete. */
  function enter(i) {
    const o = opts();
    const sel = selectableIndices();
    if (o.reject) {
      const mine = Object.values(rejectPick).includes(i);
      if (!mine && sel.has(i)) toggle(i);
    } else if (!picked.has(i) && sel.has(i)) toggle(i);
    const move = pendingMove();
    if (move) send(move);
  }

  function shortcut(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (t && (t.tagName === "INPUT" || t.tagName === "TEXTAREA" || t.tagName === "SELECT")) return;
    const key = e.key.toLowerCase();
    if (key === "p" && opts().pass && !busy) { e.preventDefault(); send({ move: "pass" }); }
    if (key === "d" && opts().done && !busy) { e.preventDefault(); send({ move: "done" }); }
  }
  document.addEventListener("keydown", shortcut);

  function handKeys(e) {
    const cards = [...$("hand").querySelectorAll("button[data-card]")];
    const i = cards.indexOf(document.activeElement);
    if (i < 0) return;
    let next = null;
    if (e.key === "ArrowRight" || e.key === "ArrowDown") next = Math.min(i + 1, cards.length - 1);
    else if (e.key === "ArrowLeft" || e.key === "ArrowUp") next = Math.max(i - 1, 0);
    else if (e.key === "Home") next = 0;
    else if (e.key === "End") next = cards.length - 1;
    else if (e.key === "Enter") { e.preventDefault(); enter(i); return; }
    if (next === null) return;
    e.preventDefault();
    focusIndex = next;
    cards.forEach((c, k) => c.setAttribute("tabindex", k === next ? "0" : "-1"));
    cards[next].focus();
  }
  $("hand").addEventListener("keydown", handKeys);

  /** Draw the hand, the move buttons and the prompt for the current view. */
  function draw(names) {
    const v = view();
    if (v.seq !== seqShown) { picked = new Set(); rejectPick = {}; seqShown = v.seq; }
    const o = opts();
    const h = hand();
    const sel = selectableIndices();
    const handEl = $("hand");
    const hadFocus = handEl.contains(document.activeElement);
    handEl.replaceChildren();
    handEl.classList.toggle("hand--picking", !!(o.challenge || o.add || o.reject));
    focusIndex = Math.max(0, Math.min(focusIndex, h.length - 1));
    const rejecting = Object.values(rejectPick);
    h.forEach((card, i) => {
      const b = cardEl(card, { tag: "button", trump: v.trump });
      b.type = "button";
      const on = picked.has(i) || rejecting.includes(i);
      b.setAttribute("aria-pressed", on ? "true" : "false");
      if (!sel.has(i) || busy) b.setAttribute("aria-disabled", "true");
      b.setAttribute("tabindex", i === focusIndex ? "0" : "-1");
      b.addEventListener("click", () => { if (sel.has(i) && !busy) toggle(i); });
      b.addEventListener("focus", () => { focusIndex = i; });
      handEl.append(b);
    });
    if (v.you !== null && !h.length && v.status === "playing") {
      handEl.append(el("p", { class: "muted" }, gettext("No cards in your hand.")));
    }
    if (hadFocus) handEl.querySelectorAll("button[data-card]")[focusIndex]?.focus();

    const actions = $("actions");
    actions.replaceChildren();
    let prompt = "";
    const ch = v.challenge || {};
    const pickedCards = [...picked].sort((a, b) => a - b).map((i) => h[i]);
    const disabled = (yes) => (yes ? { "aria-disabled": "true" } : {});
    if (o.challenge) {
      prompt = fmt(ngettext("Your turn: challenge %(target)s. Pick a card, then press Challenge.",
        "Your turn: challenge %(target)s. Pick 1 to %(limit)s cards of one rank, then press Challenge.", o.limit),
      { target: names[ch.target], limit: o.limit });
      actions.append(button(picked.size ? fmt(gettext("Challenge with %(cards)s"), { cards: listText(pickedCards.map(cardName)) })
        : gettext("Challenge"), { "data-action": "challenge", ...disabled(!picked.size || busy) },
      () => { const m = pendingMove(); if (m) send(m); }));
    }
    if (o.reject) {
      const index = currentRejectIndex();
      const total = unrejected().length;
      prompt = index !== undefined
        ? fmt(gettext("Your turn: pick a card to reject %(card)s (%(done)s of %(total)s), or pass and take the cards."),
          { card: cardName(v.table[index].card), done: total - unrejected().filter((i) => !(i in rejectPick)).length + 1, total })
        : gettext("Your turn: press Reject, or pass and take the cards.");
      const complete = index === undefined;
      const pairs = Object.entries(rejectPick).map(([i, hi]) =>
        fmt(gettext("%(card)s with %(with)s"), { card: cardName(v.table[i].card), with: cardName(h[hi]) }));
      actions.append(button(complete ? fmt(gettext("Reject %(pairs)s"), { pairs: pairs.join("; ") }) : gettext("Reject"),
        { "data-action": "reject", ...disabled(!complete || busy) },
        () => { const m = pendingMove(); if (m) send(m); }));
      root.querySelectorAll("#challenge [data-index]").forEach((li) =>
        li.classList.toggle("pair--choosing", Number(li.dataset.index) === index));
    }
    if (o.pass) {
      actions.append(button(gettext("Pass and take the cards"), { "data-action": "pass", class: "button button--secondary", "aria-keyshortcuts": "P", ...disabled(busy) },
        () => send({ move: "pass" })));
    }
    if (o.add) {
      prompt = fmt(ngettext("Your turn: add a card of a value already on the table (1 more fits), or press Done.",
        "Your turn: add cards of a value already on the table (up to %(limit)s more), or press Done.", o.limit), { limit: o.limit });
      actions.append(button(picked.size ? fmt(gettext("Add %(cards)s"), { cards: listText(pickedCards.map(cardName)) }) : gettext("Add"),
        { "data-action": "add", ...disabled(!picked.size || busy) }, () => { const m = pendingMove(); if (m) send(m); }));
    } else if (o.done) prompt = gettext("Your turn: nothing more to add, press Done.");
    if (o.done) {
      actions.append(button(gettext("Done"), { "data-action": "done", class: "button button--secondary", "aria-keyshortcuts": "D", ...disabled(busy) },
        () => send({ move: "done" })));
    }
    if (o.bet) {
      prompt = gettext("Your turn: bet on who loses this round. A bet of 1 scores for you if they lose, for them if not; 0 scores nothing.");
      for (const on of o.bet.on) {
        const row = el("div", { class: "bet-row", role: "group", "aria-label": fmt(gettext("Bet on %(who)s"), { who: names[on] }) },
          fmt(gettext("On %(who)s:"), { who: names[on] }));
        for (const value of o.bet.values) {
          const text = fmt(gettext("bet %(value)s"), { value });
          row.append(button(text, { "data-action": "bet", "data-on": on, "data-value": value,
            "aria-label": fmt(gettext("bet %(value)s on %(who)s"), { value, who: names[on] }), ...disabled(busy) },
          () => send({ move: "bet", on, value })));
        }
        actions.append(row);
      }
    }
    return prompt;
  }

  /** Put the focus back in the hand (or on the first move) when a re-render dropped it. */
  function restoreFocus() {
    const a = document.activeElement;
    if (a && a !== document.body && document.contains(a)) return;
    const target = $("hand").querySelectorAll("button[data-card]")[focusIndex]
      || root.querySelector("#actions button") || $("prompt");
    target?.focus();
  }

  return { draw, restoreFocus, isBusy: () => busy, focusHand: () => {
    $("hand").querySelectorAll("button[data-card]")[focusIndex]?.focus();
  } };
}
