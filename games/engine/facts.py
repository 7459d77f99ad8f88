"""The facts of a move, told by the engine: `apply_told(state, move)` applies the move
once, like `State.apply`, and returns what happened, in order, as plain dicts:

    challenge / add   {"seat", "target", "cards"}      reject {"seat", "pairs": [[card, with]]}
    pass / done       {"seat"}                         bet    {"seat", "on", "value"}
    auto_pass         {"seat"}      the target cannot reject every card (RULES.md §5.7)
    takes / beaten    {"seat", "count"}   the table goes to the target / the discard pile
    pass_takes, auto_pass_takes {"seat", "count"}      a pass and the take, one fact
    draws             {"seat", "count"}   deck_empty {}   bets_placed {"bets": [[s, on]]}
    feather           {"seat", "value"}
    round_over        {"round", "loser", "bets": [[s, on, value]]}
    round_start       {"round", "seat"}   game_over {"ranking", "scores"}

Facts may name hidden things (a bet's value): whoever says them hides what a reader may
not know. The facts are read off the state before and after, so the hot `apply` that
bots run stays as it is; round 2's deal waits until round 1's facts are read.
"""

from .state import BET, OPEN, OVER, State


def apply_told(state: State, move: dict) -> list[dict]:
    """Apply `move` to `state` (mutating it; IllegalMove leaves it unchanged) and return
    its facts."""
    before_stage, target = state.stage, state.target
    before_hands = [len(h) for h in state.hands]
    before_discard, before_passed = len(state.discard), state.passed
    before_table = len(state.table_cards) + sum(r is not None for r in state.table_rejections)
    before_feathers = [len(f) for f in state.feathers_taken()]
    before_cards = list(state.table_cards)
    # round 2 is dealt after round 1's facts are read, not inside apply()
    next_deal, state.next_deal = state.next_deal, None
    try:
        state.apply(move)
    except Exception:
        state.next_deal = next_deal
        raise

    seat, kind = move["seat"], move["move"]
    facts: list[dict] = []
    played = list(move.get("cards", [])) + [c for _i, c in move.get("pairs", [])]
    if kind in ("challenge", "add"):
        facts.append({"kind": kind, "seat": seat, "target": target, "cards": move["cards"]})
    elif kind == "reject":
        facts.append({"kind": "reject", "seat": seat,
                      "pairs": [[before_cards[i], c] for i, c in move["pairs"]]})
    elif kind in ("pass", "done"):
        facts.append({"kind": kind, "seat": seat})
    elif kind == "bet":
        facts.append({"kind": "bet", "seat": seat, "on": move["on"], "value": move["value"]})

    if kind != "bet" and before_stage != BET:
        if state.stage in (OPEN, BET, OVER):  # the challenge was resolved
            count = before_table + len(played)
            passed = len(state.discard) != before_discard + count or before_passed
            if passed:
                if kind != "pass" and not before_passed:
                    facts.append({"kind": "auto_pass", "seat": target})
                facts.append({"kind": "takes", "seat": target, "count": count})
            else:
                facts.append({"kind": "beaten", "seat": target, "count": count})
            for s in range(state.n):  # cards drawn (phase 1): hand sizes are public
                gained = len(state.hands[s]) - before_hands[s] + (
                    len(played) if s == seat else 0)
                if passed and s == target:
                    gained -= count
                if gained > 0:
                    facts.append({"kind": "draws", "seat": s, "count": gained})
            if state.stage == BET:
                facts.append({"kind": "deck_empty"})
        elif state.passed and not before_passed and kind != "pass":
            facts.append({"kind": "auto_pass", "seat": target})
    if kind == "bet" and state.stage != BET:
        facts.append({"kind": "bets_placed",
                      "bets": [[s, b[0]] for s, b in enumerate(state.bets)]})
    taken = state.feathers_taken()
    for s in range(state.n):
        for value in taken[s][before_feathers[s]:]:
            facts.append({"kind": "feather", "seat": s, "value": value})
    if state.stage == OVER and before_stage != OVER:
        loser = state.round_losers[-1]
        facts.append({"kind": "round_over", "round": state.round, "loser": loser,
                      "bets": [[s, on, v] for s, (on, v) in enumerate(state.bets)]})
        if next_deal is not None and state.round == 1:
            state.begin_round(next_deal[0], next_deal[1], loser)
            facts.append({"kind": "round_start", "round": 2, "seat": loser})
        elif state.finished:
            facts.append({"kind": "game_over", "ranking": state.ranking,
                          "scores": state.scores})
    else:
        state.next_deal = next_deal
    return _merge_pass_and_take(facts)


def _merge_pass_and_take(facts: list[dict]) -> list[dict]:
    """ "cat passes." + "cat takes 4 cards." are one fact: "cat passes and takes 4 cards." """
    merged: list[dict] = []
    for fact in facts:
        last = merged[-1] if merged else None
        if fact["kind"] == "takes" and last and last["kind"] in ("pass", "auto_pass") \
                and last["seat"] == fact["seat"]:
            merged[-1] = {**fact, "kind": last["kind"] + "_takes"}
        else:
            merged.append(fact)
    return merged
