// The game log beside the table: every move in words, written by the server
// (games/narration.py) so hidden cards and bets stay hidden. Lines come whole on page load
// and from GET /api/v1/games/{id}/log; each view carries the lines of its latest move.
import { el } from "./cards.js";

export function gameLog(listEl, { initial = [], initialSeq = 0 } = {}) {
  let lines = [...initial];
  let seq = initialSeq;

  // follow the newest line unless the reader scrolled up to read older ones
  let follow = true;
  listEl.addEventListener("scroll", () => {
    follow = listEl.scrollTop + listEl.clientHeight >= listEl.scrollHeight - 8;
  });

  function draw() {
    listEl.replaceChildren(...lines.map((l) => el("li", { "data-seq": l.seq }, l.text)));
    if (follow) listEl.scrollTop = listEl.scrollHeight;
  }

  async function reload(gameId) {
    const r = await fetch(`/games/${gameId}/log/`, { credentials: "same-origin" });
    if (!r.ok) return;
    const body = await r.json();
    lines = body.lines;
    seq = body.seq;
    draw();
  }

  return {
    /** A new view: append its move's lines, or reload the whole log after a gap. */
    update(view, gameId) {
      if (view.seq === seq) return;
      if (view.seq === seq + 1 && Array.isArray(view.log)) {
        lines = lines.concat(view.log);
        seq = view.seq;
        draw();
      } else reload(gameId);
    },
    /** Replay: show the lines up to a move. */
    showUpTo(n) {
      listEl.replaceChildren(...lines.filter((l) => l.seq <= n).map((l) => el("li", { "data-seq": l.seq }, l.text)));
      listEl.scrollTop = listEl.scrollHeight;
    },
    draw,
  };
}
