// A short chime when it becomes your turn: off by default, the choice kept per browser.
import { gettext } from "./i18n.js";

const KEY = "blaze.sound";

export function sounds(toggle) {
  let on = false;
  try { on = localStorage.getItem(KEY) === "on"; } catch { /* private mode */ }
  let ctx = null;
  const label = () => {
    if (!toggle) return;
    toggle.setAttribute("aria-pressed", on ? "true" : "false");
    toggle.textContent = on ? gettext("Sound: on") : gettext("Sound: off");
  };
  toggle?.addEventListener("click", () => {
    on = !on;
    try { localStorage.setItem(KEY, on ? "on" : "off"); } catch { /* private mode */ }
    label();
  });
  label();
  return {
    turn() {
      if (!on) return;
      try {
        ctx = ctx || new AudioContext();
        const osc = ctx.createOscillator();
        const gain = ctx.createGain();
        osc.frequency.value = 660;
        gain.gain.setValueAtTime(0.12, ctx.currentTime);
        gain.gain.exponentialRampToValueAtTime(0.001, ctx.currentTime + 0.35);
        osc.connect(gain).connect(ctx.destination);
        osc.start();
        osc.stop(ctx.currentTime + 0.35);
      } catch { /* no audio */ }
    },
  };
}
