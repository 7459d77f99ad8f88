// Translations from Django's JavaScriptCatalog (window.gettext…) when the page loads it;
// until then the English text stands.
export const gettext = (s) => (window.gettext ? window.gettext(s) : s);
export const ngettext = (s, p, n) => (window.ngettext ? window.ngettext(s, p, n) : n === 1 ? s : p);
export const pgettext = (c, s) => (window.pgettext ? window.pgettext(c, s) : s);
/** "%(name)s" placeholders filled from `values`. */
export const fmt = (text, values) => text.replace(/%\((\w+)\)s/g, (_, k) => String(values[k]));

/** "a", "a and b", "a, b and c" */
export function listText(items) {
  if (items.length < 2) return items.join("");
  return fmt(gettext("%(first)s and %(last)s"),
    { first: items.slice(0, -1).join(", "), last: items[items.length - 1] });
}
/** The API speaks Accept-Language: the page's own language, for its views' words. */
export const pageLanguage = () => ({ "Accept-Language": document.documentElement.lang || "en" });
