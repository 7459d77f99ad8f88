// Seat clocks: the server sends {seat, remaining (s), running, deadline (ISO, UTC), paused};
// the page only counts the running ones down between views.
import { fmt, gettext } from "./i18n.js";

const formatLeft = (seconds) => {
  const s = Math.max(Math.floor(seconds), 0);
  const d = Math.floor(s / 86400), h = Math.floor((s % 86400) / 3600);
  const m = Math.floor((s % 3600) / 60), sec = s % 60;
  if (d) return `${d}d ${h}h`;
  if (h) return `${h}h ${String(m).padStart(2, "0")}m`;
  return `${m}:${String(sec).padStart(2, "0")}`;
};

export function deadlineFormatter(timeZone) {
  const options = { weekday: "short", day: "numeric", month: "short", hour: "2-digit",
    minute: "2-digit", hourCycle: "h23", timeZone };
  try {
    return new Intl.DateTimeFormat("en-GB", options);
  } catch {  // an unknown zone name: read the deadline in UTC rather than not at all
    return new Intl.DateTimeFormat("en-GB", { ...options, timeZone: "UTC" });
  }
}

/** The text of one seat's clock, `elapsed` seconds after the view arrived. */
export function clockText(clock, elapsed, correspondence, formatter) {
  if (clock.paused) return gettext("paused (vacation)");
  const left = clock.running ? clock.remaining - elapsed : clock.remaining;
  let text = fmt(clock.running ? gettext("%(time)s left") : gettext("%(time)s on the clock"), { time: formatLeft(left) });
  if (correspondence && clock.running && clock.deadline) {
    const zone = formatter.resolvedOptions().timeZone;
    text += ` · ${fmt(gettext("due %(when)s (%(zone)s)"), { when: formatter.format(new Date(clock.deadline)), zone })}`;
  }
  return text;
}
