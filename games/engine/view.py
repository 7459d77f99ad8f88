"""Per-seat views (RULES.md §10): the only shape in which a state leaves the engine."""

from .legal import options
from .state import BET, OVER, State


def _bets(state: State, seat: int | None) -> list:
    placed_all = state.stage != BET
    scored = state.stage == OVER
    result = []
    for s, bet in enumerate(state.bets):
        if bet is None:
            result.append(None)
        elif s == seat or scored:
            result.append({"on": bet[0], "value": bet[1]})
        elif placed_all:
            result.append({"on": bet[0]})
        else:
            result.append({"placed": True})
    return result


def public_view(state: State) -> dict:
    """What every seat and every spectator sees alike: view() without the bets, the hand
    and the options. Shared by the views of one state, so never mutate it or its parts."""
    stage = state.stage
    return {
        "round": state.round,
        "phase": state.phase,
        "stage": stage,
        "waiting_on": state.waiting_on,
        "trump_card": state.trump_card,
        "trump": state.trump,
        "deck_size": state.deck_size,
        "hand_sizes": [len(h) for h in state.hands],
        "table": [
            {"card": c, "by": b, "rejected_by": r}
            for c, b, r in zip(state.table_cards, state.table_played_by, state.table_rejections)
        ],
        "challenge": {
            "active": state.active, "target": state.target, "supporter": state.supporter,
            "limit": state.limit, "passed": state.passed,
            "done": [s for s, d in ((state.active, state.active_done),
                                    (state.supporter, state.supporter_done))
                     if d and s is not None],
        } if stage not in (BET, OVER) else None,
        "discard": list(state.discard),
        "out": list(state.out),
        "feather_stack": list(state.feather_stack),
        "feathers": state.feathers_taken(),
        "round_feathers": [[list(f) for f in rf] for rf in state.feathers],
        "known": [list(k) for k in state.known],
        "past_bets": [
            [{"on": on, "value": v} for on, v in bets] for bets in state.bet_history
        ],
        "scores": state.scores,
        "round_losers": list(state.round_losers),
        "finished": state.finished,
        "ranking": state.ranking,
    }


def view(state: State, seat: int | None, public: dict | None = None) -> dict:
    """What `seat` may see (None: a spectator). Never another hand or the deck's order.
    `public`: public_view(state), when the caller builds several views of one state."""
    result = dict(public_view(state) if public is None else public)
    result["bets"] = _bets(state, seat)
    if seat is not None:
        result["hand"] = sorted(state.hands[seat])
        opts = options(state, seat)
        if opts is not None:
            result["options"] = opts
    return result
