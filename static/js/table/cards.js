// Card faces in HTML/CSS, the same markup as templates/games/_card.html: the rank in the
// corners, the suit's symbol in its colour, the Firebird's own art, trumps marked. The
// accessible name is the visually hidden text ("red 5, trump"); the drawn parts are hidden
// from assistive tech, so no aria-label can disagree with what is seen.
import { fmt, gettext, pgettext } from "./i18n.js";

export const SYMBOLS = { R: "▲", Y: "●", B: "◆" };
const suitName = (s) => ({ R: pgettext("suit", "red"), Y: pgettext("suit", "yellow"),
  B: pgettext("suit", "blue") })[s];
const BIRD = document.querySelector("link[rel=icon]")?.getAttribute("href") || "/static/img/firebird.svg";

export const el = (tag, attrs = {}, text = "") => {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) node.setAttribute(k, v);
  if (text) node.textContent = text;
  return node;
};

export function cardName(card) {
  if (card[1] === "F") return fmt(gettext("%(suit)s Firebird"), { suit: suitName(card[0]) });
  return fmt(gettext("%(suit)s %(rank)s"), { suit: suitName(card[0]), rank: card[1] });
}

/** A card face; `trump` is the round's trump suit letter (marks the card). */
export function cardEl(card, { tag = "span", trump = null, small = false } = {}) {
  const isTrump = trump && card[0] === trump;
  const node = el(tag, { class: `card card--${card[0]}${card[1] === "F" ? " card--F" : ""}`
    + `${isTrump ? " card--trump" : ""}${small ? " card--small" : ""}`, "data-card": card });
  const corner = (end) => {
    const c = el("span", { class: `card__corner${end ? " card__corner--end" : ""}`, "aria-hidden": "true" }, card[1]);
    c.append(el("span", { class: "card__suit" }, SYMBOLS[card[0]]));
    return c;
  };
  const pip = el("span", { class: "card__pip", "aria-hidden": "true" });
  if (card[1] === "F") pip.append(el("img", { class: "card__bird", src: BIRD, alt: "" }));
  else pip.textContent = SYMBOLS[card[0]];
  const name = el("span", { class: "visually-hidden" },
    cardName(card) + (isTrump ? `, ${gettext("trump")}` : ""));
  node.append(corner(false), pip, corner(true), name);
  return node;
}

/** A face-down card (opponents' hands, the deck). */
export const cardBack = (small = true) => el("span", { class: `card card--back${small ? " card--small" : ""}`, "aria-hidden": "true" });
