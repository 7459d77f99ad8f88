"""The rules of Blaze in plain Python: no Django here (a test makes sure).

    state = new_game(4)                 # or import_record(record)
    state.waiting_on                    # seats the game waits on
    state.apply({"seat": 2, "move": "challenge", "cards": ["Y4"]})
    view(state, seat)                   # what one seat may see, with its options
"""

from .cards import CARDS, can_reject, full_deck
from .deal import deal_game, new_game, state_from_deal
from .legal import legal_moves, legal_moves_of_view, options, random_move
from .position import state_from_view
from .record import (
    FORMAT,
    LongInt,
    RecordError,
    export_record,
    import_record,
    loads_json,
    replay_line,
    summary,
)
from .state import IllegalMove, State
from .view import public_view, view

__all__ = [
    "CARDS", "FORMAT", "IllegalMove", "LongInt", "RecordError", "State", "can_reject", "deal_game",
    "export_record", "full_deck", "import_record", "legal_moves", "legal_moves_of_view",
    "loads_json", "new_game", "options", "public_view", "random_move", "replay_line",
    "state_from_deal", "state_from_view", "summary", "view",
]
