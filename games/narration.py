"""The game log in words, built on the server from the move log.

`move_events` turns one move into facts (what was played, an automatic pass, who took or
drew how many cards, feathers, the end of a round), found by comparing the state before
and after the move; `event_text` says one fact for one viewer. Hidden information stays
hidden: a bet reads "ann places a bet" to everyone but its owner until every bet is
placed (then its target shows) and its value only once the round is scored (RULES.md §10).
Hands and the deck never appear.
"""

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .cards_text import card_name, cards_list
from .engine import State
from .engine.state import BET, OPEN, OVER


def move_events(state: State, move: dict) -> list[dict]:
    """Apply `move` to `state` (mutating it, like State.apply) and return its facts."""
    seat, kind = move["seat"], move["move"]
    before_stage, target = state.stage, state.target
    before_hands = [len(h) for h in state.hands]
    before_discard, before_passed = len(state.discard), state.passed
    before_table = len(state.table_cards) + sum(r is not None for r in state.table_rejections)
    before_feathers = [len(f) for f in state.feathers_taken()]
    before_cards = list(state.table_cards)
    # Stop at the end of round 1 instead of dealing round 2 inside apply(), so the facts of
    # the last challenge can still be read from the state.
    next_deal, state.next_deal = state.next_deal, None
    state.apply(move)

    events: list[dict] = []
    played = list(move.get("cards", [])) + [c for _i, c in move.get("pairs", [])]
    if kind == "challenge":
        events.append({"kind": "challenge", "seat": seat, "target": target,
                       "cards": move["cards"]})
    elif kind == "add":
        events.append({"kind": "add", "seat": seat, "target": target, "cards": move["cards"]})
    elif kind == "reject":
        events.append({"kind": "reject", "seat": seat, "pairs": [
            [before_cards[i], c] for i, c in move["pairs"]]})
    elif kind == "pass":
        events.append({"kind": "pass", "seat": seat})
    elif kind == "done":
        events.append({"kind": "done", "seat": seat})
    elif kind == "bet":
        events.append({"kind": "bet", "seat": seat, "on": move["on"], "value": move["value"]})

    resolved = kind != "bet" and state.stage in (OPEN, BET, OVER)
    if kind != "bet" and before_stage != BET:
        if resolved:
            count = before_table + len(played)
            passed = len(state.discard) != before_discard + count or before_passed
            if passed:
                if kind != "pass" and not before_passed:
                    events.append({"kind": "auto_pass", "seat": target})
                events.append({"kind": "takes", "seat": target, "count": count})
            else:
                events.append({"kind": "beaten", "seat": target, "count": count})
            # cards drawn (phase 1): hand sizes are public
            for s in range(state.n):
                gained = len(state.hands[s]) - before_hands[s] + played_by(move, s)
                if passed and s == target:
                    gained -= count
                if gained > 0:
                    events.append({"kind": "draws", "seat": s, "count": gained})
            if state.stage == BET:
                events.append({"kind": "deck_empty"})
        elif state.passed and not before_passed and kind != "pass":
            events.append({"kind": "auto_pass", "seat": target})
    if kind == "bet" and state.stage != BET:
        events.append({"kind": "bets_placed",
                       "bets": [[s, b[0]] for s, b in enumerate(state.bets)]})
    taken = state.feathers_taken()
    for s in range(state.n):
        for value in taken[s][before_feathers[s]:]:
            events.append({"kind": "feather", "seat": s, "value": value})
    if state.stage == OVER and before_stage != OVER:
        loser = state.round_losers[-1]
        events.append({"kind": "round_over", "round": state.round, "loser": loser,
                       "bets": [[s, on, v] for s, (on, v) in enumerate(state.bets)]})
        if next_deal is not None and state.round == 1:
            state.begin_round(next_deal[0], next_deal[1], loser)
            events.append({"kind": "round_start", "round": 2, "seat": loser})
        elif state.finished:
            events.append({"kind": "game_over", "ranking": state.ranking,
                           "scores": state.scores})
    else:
        state.next_deal = next_deal
    return _merge_pass_and_take(events)


def _merge_pass_and_take(events: list[dict]) -> list[dict]:
    """ "cat passes." + "cat takes 4 cards." read as one: "cat passes and takes 4 cards." """
    merged: list[dict] = []
    for event in events:
        last = merged[-1] if merged else None
        if event["kind"] == "takes" and last and last["kind"] in ("pass", "auto_pass") \
                and last["seat"] == event["seat"]:
            merged[-1] = {**event, "kind": last["kind"] + "_takes"}
        else:
            merged.append(event)
    return merged


def played_by(move: dict, seat: int) -> int:
    if move["seat"] != seat:
        return 0
    return len(move.get("cards", [])) + len(move.get("pairs", []))


# ---- words -----------------------------------------------------------------------------


def event_text(event: dict, names: list[str], you: int | None) -> str | None:
    """One fact in words for the viewer in seat `you` (None: a spectator)."""
    kind = event["kind"]
    seat = event.get("seat")
    me = seat is not None and seat == you
    name = names[seat] if seat is not None else ""
    if kind == "challenge":
        cards = cards_list(event["cards"])
        if me:
            return _("You challenge %(target)s with %(cards)s.") % {
                "target": names[event["target"]], "cards": cards}
        if event["target"] == you:
            return _("%(who)s challenges you with %(cards)s.") % {"who": name, "cards": cards}
        return _("%(who)s challenges %(target)s with %(cards)s.") % {
            "who": name, "target": names[event["target"]], "cards": cards}
    if kind == "add":
        cards = cards_list(event["cards"])
        if me:
            return _("You add %(cards)s.") % {"cards": cards}
        return _("%(who)s adds %(cards)s.") % {"who": name, "cards": cards}
    if kind == "reject":
        parts = [
            (_("%(card)s with %(with)s") % {"card": card_name(c), "with": card_name(r)})
            for c, r in event["pairs"]]
        joined = "; ".join(parts)
        if me:
            return _("You reject %(pairs)s.") % {"pairs": joined}
        return _("%(who)s rejects %(pairs)s.") % {"who": name, "pairs": joined}
    if kind == "pass":
        return _("You pass.") if me else _("%(who)s passes.") % {"who": name}
    if kind == "done":
        return _("You are done adding.") if me else \
            _("%(who)s is done adding.") % {"who": name}
    if kind == "bet":
        if me:
            return _("You bet %(value)s on %(on)s.") % {
                "value": event["value"], "on": names[event["on"]]}
        return _("%(who)s places a bet.") % {"who": name}
    if kind == "auto_pass":
        return _("You cannot reject every card and pass.") if me else \
            _("%(who)s cannot reject every card and passes.") % {"who": name}
    if kind == "pass_takes":
        n = event["count"]
        if me:
            return ngettext("You pass and take %(n)s card.", "You pass and take %(n)s cards.",
                            n) % {"n": n}
        return ngettext("%(who)s passes and takes %(n)s card.",
                        "%(who)s passes and takes %(n)s cards.", n) % {"who": name, "n": n}
    if kind == "auto_pass_takes":
        n = event["count"]
        if me:
            return ngettext("You cannot reject every card and take %(n)s card.",
                            "You cannot reject every card and take %(n)s cards.", n) % {"n": n}
        return ngettext("%(who)s cannot reject every card and takes %(n)s card.",
                        "%(who)s cannot reject every card and takes %(n)s cards.", n) % {
            "who": name, "n": n}
    if kind == "takes":
        n = event["count"]
        if me:
            return ngettext("You take %(n)s card.", "You take %(n)s cards.", n) % {"n": n}
        return ngettext("%(who)s takes %(n)s card.", "%(who)s takes %(n)s cards.", n) % {
            "who": name, "n": n}
    if kind == "beaten":
        if me:
            return _("You rejected every card: they go to the discard pile.")
        return _("%(who)s rejected every card: they go to the discard pile.") % {"who": name}
    if kind == "draws":
        n = event["count"]
        if me:
            return ngettext("You draw %(n)s card.", "You draw %(n)s cards.", n) % {"n": n}
        return ngettext("%(who)s draws %(n)s card.", "%(who)s draws %(n)s cards.", n) % {
            "who": name, "n": n}
    if kind == "deck_empty":
        return _("The deck is empty: everyone bets on who will lose the round.")
    if kind == "bets_placed":
        bets = ", ".join(
            _("%(who)s on %(on)s") % {"who": names[s], "on": names[on]}
            for s, on in event["bets"])
        return _("All bets are placed: %(bets)s.") % {"bets": bets}
    if kind == "feather":
        values = {"value": event["value"]}
        if me:
            return _("You go out and take the %(value)s feather.") % values
        return _("%(who)s goes out and takes the %(value)s feather.") % {"who": name, **values}
    if kind == "round_over":
        loser = names[event["loser"]]
        bets = ", ".join(
            _("%(who)s %(value)s on %(on)s") % {"who": names[s], "value": v, "on": names[on]}
            for s, on, v in event["bets"])
        if event["loser"] == you:
            text = _("Round %(round)s is over: you lose it.") % {"round": event["round"]}
        else:
            text = _("Round %(round)s is over: %(loser)s loses it.") % {
                "round": event["round"], "loser": loser}
        return text + " " + _("Bets: %(bets)s.") % {"bets": bets}
    if kind == "round_start":
        if me:
            return _("Round %(round)s begins: you open it.") % {"round": event["round"]}
        return _("Round %(round)s begins: %(who)s opens it.") % {
            "round": event["round"], "who": name}
    if kind == "game_over":
        winner = event["ranking"][0]
        if winner == you:
            return _("The game is over: you win!")
        return _("The game is over: %(who)s wins.") % {"who": names[winner]}
    return None


def _reader(event: dict, you: int | None) -> int | None:
    """`you` where the words depend on who reads them (the seats a fact names), else
    None: every other reader of one language gets the same words."""
    ranking = event.get("ranking")
    named = (event.get("seat"), event.get("target"), event.get("loser"),
             ranking[0] if ranking else None)
    return you if you is not None and you in named else None


def lines_for(events_by_seq: list[tuple[int, list[dict]]], names: list[str],
              you: int | None, said: dict | None = None) -> list[dict]:
    """[{"seq": n, "text": …}] for moves in order (`seq` counts moves: 1 = the first).
    `said`: a dict shared by the readers of one change (same events, same names), so
    words said for one reader are not made again for the next."""
    lines = []
    language = get_language()
    for seq, events in events_by_seq:
        for event in events:
            if said is None:
                text = event_text(event, names, you)
            else:
                key = (language, id(event), _reader(event, you))
                if key not in said:
                    said[key] = event_text(event, names, you)
                text = said[key]
            if text:
                lines.append({"seq": seq, "text": text})
    return lines
