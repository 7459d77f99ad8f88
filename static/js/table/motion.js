// Moves animate: a card travels from its player's seat to the table; when a challenge
// ends its cards sweep to the player who takes them (a pass) or off to the discard pile.
// Nothing moves when the reader prefers reduced motion.
const reduced = () => window.matchMedia?.("(prefers-reduced-motion: reduce)").matches;

/** Where the table's cards and the seats are now (before a re-render). */
export function snapshotBoard(root) {
  const cards = [...root.querySelectorAll("#challenge .pair__cards .card[data-card]")].map((c) => ({
    key: `${c.closest("[data-index]").dataset.index}:${c.dataset.card}`,
    rect: c.getBoundingClientRect(), html: c.outerHTML,
  }));
  const passedTo = root.querySelector("#challenge [data-passed-target]")?.dataset.passedTarget;
  return { cards, passedTo };
}

const seatRect = (root, seat) => root.querySelector(`#felt [data-seat="${seat}"]`)?.getBoundingClientRect();

export function animateBoard(root, before) {
  if (reduced() || !before || !Element.prototype.animate) return;
  const now = [...root.querySelectorAll("#challenge .pair__cards .card[data-card]")];
  const old = new Set(before.cards.map((c) => c.key));
  for (const card of now) {
    const pair = card.closest("[data-index]");
    const key = `${pair.dataset.index}:${card.dataset.card}`;
    if (old.has(key)) continue;
    // a rejection card comes from the target; a challenge card from its player
    const from = seatRect(root, card.previousElementSibling ? pair.dataset.target ?? pair.dataset.by : pair.dataset.by);
    const to = card.getBoundingClientRect();
    if (!from || !to.width) continue;
    const dx = from.left + from.width / 2 - (to.left + to.width / 2);
    const dy = from.top + from.height / 2 - (to.top + to.height / 2);
    card.animate([{ transform: `translate(${dx}px, ${dy}px) scale(0.6)`, opacity: 0.3 }, { transform: "none", opacity: 1 }],
      { duration: 350, easing: "ease-out" });
  }
  if (before.cards.length && !now.length) {
    const target = before.passedTo !== undefined ? seatRect(root, before.passedTo) : null;
    for (const c of before.cards) {
      const ghost = document.createElement("div");
      ghost.innerHTML = c.html;
      const node = ghost.firstElementChild;
      node.classList.add("card--ghost");
      Object.assign(node.style, { position: "fixed", left: `${c.rect.left}px`, top: `${c.rect.top}px`, margin: 0, zIndex: 20, pointerEvents: "none" });
      node.setAttribute("aria-hidden", "true");
      document.body.append(node);
      const end = target
        ? { transform: `translate(${target.left + target.width / 2 - c.rect.left - c.rect.width / 2}px, ${target.top + target.height / 2 - c.rect.top - c.rect.height / 2}px) scale(0.4)`, opacity: 0.2 }
        : { transform: "translateY(-20px) scale(0.9)", opacity: 0 };
      node.animate([{ transform: "none", opacity: 1 }, end], { duration: 450, easing: "ease-in" }).finished
        .then(() => node.remove(), () => node.remove());
    }
  }
}
