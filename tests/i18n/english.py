"""Finding English interface text left in a page that should be in Japanese or Spanish."""

import re
import zoneinfo
from html.parser import HTMLParser

# Words that stay as they are in every language: names, codes, units.
KEPT = {"blaze", "api", "utc", "bot", "bots", "ann", "bob", "cat", "dan", "eve", "yuki",
        "ok", "id", "seq", "rating", "email", "enter"}  # "enter": a key's name
# Words no Spanish (or Japanese) sentence uses; two of them together mean English was left.
ENGLISH = {"the", "your", "you", "and", "is", "are", "of", "with", "this", "that", "to",
           "in", "on", "for", "game", "games", "play", "player", "players", "turn", "sign",
           "log", "settings", "waiting", "round", "table", "cards", "card", "feathers", "bet",
           "pass", "reject", "challenge", "done", "add", "who", "what", "when", "has", "have",
           "not", "yet", "new", "it", "will", "be", "an", "at", "by", "from", "or", "was",
           "home", "my", "leaderboard", "tournaments", "notifications", "join", "create",
           "open", "seat", "seats", "rules", "replay", "move", "moves", "wins", "lost"}
# Proper names a page may list in any language: time zones, the languages' own names.
NAMES = {z.replace("_", " ") for z in zoneinfo.available_timezones()} | {"English", "Español"}
ATTRIBUTES = ("title", "aria-label", "placeholder", "alt")
SKIPPED = {"script", "style", "code", "pre", "svg-data"}


class _Text(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.chunks: list[str] = []
        self._stack: list[tuple[str, bool]] = []

    def _skipping(self) -> bool:
        return any(skip for _, skip in self._stack)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        # another language on purpose (the language switch's names), or not for people
        skip = tag in SKIPPED or "lang" in attrs and tag != "html"
        if tag not in {"input", "br", "img", "meta", "link", "hr", "source"}:
            self._stack.append((tag, skip))
        if not skip and not self._skipping():
            for name in ATTRIBUTES:
                if attrs.get(name):
                    self.chunks.append(attrs[name])
            if tag == "input" and attrs.get("type") in {"submit", "button"} and attrs.get("value"):
                self.chunks.append(attrs["value"])

    def handle_endtag(self, tag):
        for i in range(len(self._stack) - 1, -1, -1):
            if self._stack[i][0] == tag:
                del self._stack[i:]
                break

    def handle_data(self, data):
        if not self._skipping() and data.strip():
            self.chunks.append(data.strip())


def visible_text(html: str) -> list[str]:
    parser = _Text()
    parser.feed(html)
    return parser.chunks


def english_left(html: str, lang: str, also_kept: set[str] = frozenset()) -> list[str]:
    """The bits of a page's interface text that look English."""
    kept = KEPT | {w.lower() for w in also_kept}
    found = []
    for chunk in visible_text(html):
        if chunk in NAMES:
            continue
        chunk = re.sub(r"blaze-record/\d", "", chunk)  # the record format's name
        words = [w.lower() for w in re.findall(r"[A-Za-z][A-Za-z']*", chunk)]
        # card codes (R5) and the Firebird's rank drawn on a card (F) are not words
        # (and single letters: keys to press, "P" to pass)
        words = [w for w in words if w not in kept and not re.fullmatch(r"[ryb]?[1-9f]|[a-z]", w)]
        if lang == "ja":
            english = bool(words)  # Japanese pages have no Latin words beyond names, codes
        else:  # two English-only words, or a label that is one of them ("Games", "Join")
            english = sum(w in ENGLISH for w in words) >= 2 or (
                len(words) == 1 and words[0] in ENGLISH and len(words[0]) > 3)
        if english:
            found.append(chunk)
    return found
