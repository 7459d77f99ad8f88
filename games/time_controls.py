"""Time controls: what a game's `time_control` object may say, in one place.

Pure Python (no Django): `games` checks a new game's time control here; the clocks above
(`clocks.clock`) run them. The lobby's presets are here too.
"""

from __future__ import annotations

from dataclasses import dataclass

from .engine.words import Sentence as S
from .engine.words import gettext_noop as N_  # a marker: makemessages collects N_("…")

DAY = 86400
LIVE, CORRESPONDENCE = "live", "correspondence"
KINDS = (LIVE, CORRESPONDENCE)
PER_MOVE_DAYS = (1, 2, 3, 5, 7)
MAX_CORRESPONDENCE_DAYS = 7
LIVE_MAX_MINUTES = 180
LIVE_MAX_INCREMENT = 180
WARN_SHARE = 0.2  # "almost out of time" when a fifth of the full clock is left


class TimeControlError(ValueError):
    """A time-control object that cannot be used; the message (a Sentence or Phrase, for
    the web layer to translate) says what to fix."""


@dataclass(frozen=True)
class TimeControl:
    kind: str
    initial: float  # seconds in the bank at the start
    increment: float  # seconds added to a seat's bank after each of its moves
    cap: float  # the bank never holds more
    per_move: bool  # the bank refills whenever the seat's turn ends

    @property
    def vacations_apply(self) -> bool:
        return self.kind == CORRESPONDENCE

    @property
    def warn_reserve(self) -> float:
        """Seconds left at which the player is told they are almost out of time."""
        return WARN_SHARE * self.cap


# ---- time controls ---------------------------------------------------------------------------


def _int_field(tc: dict, key: str, low: int, high: int, default=None) -> int:
    if key not in tc:
        if default is None:
            raise TimeControlError(S(N_('{kind} time control needs "{key}"'),
                                     kind=tc.get("kind"), key=key))
        return default
    value = tc[key]
    if type(value) is not int or not low <= value <= high:
        raise TimeControlError(S(N_('"{key}" must be a whole number from {low} to {high}'),
                                 key=key, low=low, high=high))
    return value


def _no_other_keys(tc: dict, allowed: set) -> None:
    extra = sorted(set(tc) - allowed - {"kind"})
    if extra:
        raise TimeControlError(S(N_("unknown time control field {field!r}: use {allowed}"),
                                 field=extra[0], allowed=", ".join(sorted(allowed))))


def parse_time_control(tc) -> TimeControl:
    """Check a time-control object and turn it into seconds. Raises TimeControlError.

    live:            {"kind": "live", "minutes": 10, "increment": 5, "max_minutes": 15}
                     (increment in seconds, default 0; max_minutes defaults to minutes)
    correspondence:  {"kind": "correspondence", "days": 1|2|3|5|7}   (per move), or
                     {"kind": "correspondence", "bank_days": 3, "increment_days": 1,
                      "max_days": 7}   (a bank; max_days defaults to 7, never more)
    """
    if not isinstance(tc, dict):
        raise TimeControlError(N_('a time control must be an object with a "kind"'))
    kind = tc.get("kind")
    if kind == LIVE:
        _no_other_keys(tc, {"minutes", "increment", "max_minutes"})
        minutes = _int_field(tc, "minutes", 1, LIVE_MAX_MINUTES)
        increment = _int_field(tc, "increment", 0, LIVE_MAX_INCREMENT, default=0)
        max_minutes = _int_field(tc, "max_minutes", 1, LIVE_MAX_MINUTES, default=minutes)
        if max_minutes < minutes:
            raise TimeControlError(N_('"max_minutes" cannot be less than "minutes"'))
        return TimeControl(LIVE, minutes * 60.0, float(increment), max_minutes * 60.0, False)
    if kind == CORRESPONDENCE:
        if "days" in tc:
            _no_other_keys(tc, {"days"})
            days = tc["days"]
            if type(days) is not int or days not in PER_MOVE_DAYS:
                raise TimeControlError(N_('"days" per move must be one of 1, 2, 3, 5 or 7'))
            return TimeControl(CORRESPONDENCE, days * DAY, days * DAY, days * DAY, True)
        if "bank_days" in tc:
            _no_other_keys(tc, {"bank_days", "increment_days", "max_days"})
            top = MAX_CORRESPONDENCE_DAYS
            bank = _int_field(tc, "bank_days", 1, top)
            increment = _int_field(tc, "increment_days", 0, top, default=1)
            cap = _int_field(tc, "max_days", 1, top, default=top)
            if cap < bank:
                raise TimeControlError(N_('"max_days" cannot be less than "bank_days"'))
            return TimeControl(CORRESPONDENCE, bank * DAY, increment * DAY, cap * DAY, False)
        raise TimeControlError(
            N_('a correspondence time control needs "days" (per move) or "bank_days"'))
    raise TimeControlError(N_('time control "kind" must be "live" or "correspondence"'))


# ---- presets: what the lobby and the tournament form offer ------------------------------------

PRESETS = {
    LIVE: {"kind": LIVE, "minutes": 10},
    CORRESPONDENCE: {"kind": CORRESPONDENCE, "days": 3},
}
DEFAULT_KIND = LIVE


def preset(kind: str) -> dict:
    """The preset time control of a kind named in a form ("live" when unknown)."""
    return dict(PRESETS.get(kind, PRESETS[DEFAULT_KIND]))


def clean_time_control(tc) -> dict:
    """The time control to store on a new game or tournament (None: the default preset).

    The one check of a time control; raises TimeControlError with a sentence.
    """
    if tc is None:
        return preset(DEFAULT_KIND)
    if not isinstance(tc, dict) or tc.get("kind") not in KINDS:
        raise TimeControlError(
            N_('a time control must be an object with "kind": "live" or "correspondence"'))
    parse_time_control(tc)
    return dict(tc)
