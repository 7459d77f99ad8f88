"""Who may watch a game: the one rule for the API, the pages, the socket, the record and
the replay. Those who may not are told the game does not exist (404), since game ids
are sequential and a private table must not show that it is there."""

import secrets

# The session remembers the invite links a visitor opened, so the page's own API calls
# and socket need not carry the code.
SESSION_INVITES = "game_invites"


def invite_matches(game, invite) -> bool:
    """The invite code given is the table's (in constant time; any text, even non-ASCII,
    which compare_digest refuses as str)."""
    return bool(game.invite_code) and secrets.compare_digest(
        str(invite).encode(), game.invite_code.encode())


def can_watch(game, user, *, invite: str = "") -> bool:
    """Anyone (anonymous visitors too) for a public game; for a private table or an
    imported record, its seated players, its creator, staff and holders of its invite."""
    if not game.private:
        return True
    if invite and game.invite_code and invite_matches(game, invite):
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff or game.created_by_id == user.pk:
        return True
    return game.seats.filter(user=user).exists()


def invite_remember(session, game, invite: str) -> None:
    """Keep a valid invite code for this game in the visitor's session."""
    if game.private and invite and invite_matches(game, invite):
        codes = dict(session.get(SESSION_INVITES) or {})
        codes[str(game.pk)] = game.invite_code
        session[SESSION_INVITES] = codes


def invite_given(session, game_id: int, given: str = "") -> str:
    """The invite code a request carries: its own parameter, else the one remembered."""
    if given:
        return given
    if session is None:
        return ""
    return str((session.get(SESSION_INVITES) or {}).get(str(game_id), ""))
