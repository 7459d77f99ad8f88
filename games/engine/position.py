"""A state rebuilt from one seat's view: the public position, hidden cards dealt later.

For searches over what a seat cannot see (the bots' determinizations): build the public
part once with `state_from_view`, then per sample `clone()` it and `deal_hidden` the
cards and bet values the view does not show.
"""

from .cards import CHALLENGE_VALUE, REJECT_VALUE
from .state import State


def state_from_view(view: dict, *, last_challenge: tuple | None = None) -> State:
    """A State with every public fact of `view` (RULES.md §10) set; hands and deck are
    empty until `State.deal_hidden`.

    In the bet stage the view does not say which challenge came last, which phase 2
    opens with: `last_challenge` is the caller's guess, (seats involved, its target,
    whether the target passed).
    """
    n = len(view["hand_sizes"])
    st = State(n)
    st.round = view["round"]
    st.trump_card = view["trump_card"]
    st.trump = view["trump"]
    st.stage = view["stage"]
    table = view["table"]
    st.table_cards = [e["card"] for e in table]
    st.table_played_by = [e["by"] for e in table]
    st.table_rejections = [e["rejected_by"] for e in table]
    st.values = {CHALLENGE_VALUE[c] for c in st.table_cards}
    st.values.update(REJECT_VALUE[r] for r in st.table_rejections if r is not None)
    st.unrejected = sum(1 for r in st.table_rejections if r is None)
    challenge = view["challenge"]
    if challenge is not None:
        st.active, st.target = challenge["active"], challenge["target"]
        st.supporter = challenge["supporter"]
        st.limit = challenge["limit"]
        st.passed = challenge["passed"]
        st.active_done = st.active in challenge["done"]
        st.supporter_done = st.supporter is not None and st.supporter in challenge["done"]
    else:
        st.active = st.target = 0
        st.supporter = None
        st.limit = 5
        st.passed = st.active_done = st.supporter_done = False
    st.out = list(view["out"])
    st.feather_stack = list(view["feather_stack"])
    st.feathers = [[list(f) for f in rf] for rf in view["round_feathers"]]
    taken = view["feathers"]
    st.bet_piles = [view["scores"][s] - sum(taken[s]) for s in range(n)]
    st.bet_history = [[(b["on"], b["value"]) for b in bets] for bets in view["past_bets"]]
    st.round_losers = list(view["round_losers"])
    st.discard = list(view["discard"])
    st.box = []
    st.known = [list(k) for k in view["known"]]
    st.bets = [None if b is None else (b["on"], b["value"]) if "value" in b else
               (b["on"], None) if "on" in b else "placed" for b in view["bets"]]
    st.pending = last_challenge
    st.hands = [[] for _ in range(n)]
    st.deck = []
    st.deck_pos = 0
    st.deals = []
    st.starts = []
    st.moves = [[] for _ in range(st.round)]
    st.next_deal = None
    return st
