"""Text no database or encoder stores: NUL characters (PostgreSQL refuses them) and lone
surrogates (JSON may carry "\\ud800", UTF-8 cannot). Refused at the services' door, with a
sentence, wherever a request's text is kept."""


def text_unstorable(value, *, depth: int = 0) -> bool:
    """True if any text in `value` (a string, or nested lists and dicts, keys included)
    holds a NUL or a lone surrogate. json.loads joins escaped pairs, so any surrogate left
    in a str is a lone one."""
    if isinstance(value, str):
        if "\x00" in value:
            return True
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            return True
        return False
    if depth > 100:  # deeper than any request the site takes: the parser refuses those
        return False
    if isinstance(value, dict):
        return any(text_unstorable(k, depth=depth + 1) or text_unstorable(v, depth=depth + 1)
                   for k, v in value.items())
    if isinstance(value, list | tuple):
        return any(text_unstorable(v, depth=depth + 1) for v in value)
    return False
