"""Small builders for engine tests: hand-made deals and quick move helpers."""

from games.engine import State


def deal(n: int, hands: list, deck: list, start: int = 0) -> State:
    """A round-1 state with a hand-made deal (sizes need not follow the rules)."""
    state = State(n)
    state.begin_round(hands, deck, start)
    return state


def play(state: State, seat: int, kind: str, **fields) -> State:
    state.apply({"seat": seat, "move": kind, **fields})
    return state


def bet_all(state: State, bets: dict) -> State:
    for seat, (on, value) in bets.items():
        play(state, seat, "bet", on=on, value=value)
    return state
