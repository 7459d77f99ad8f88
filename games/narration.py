"""The game log in words: the engine tells the facts of a move (games.engine.facts:
what was played, an automatic pass, who took or drew how many cards, feathers, the end of
a round); `event_text` says one fact for one viewer. Hidden information stays
hidden: a bet reads "ann places a bet" to everyone but its owner until every bet is
placed (then its target shows) and its value only once the round is scored (RULES.md §10).
Hands and the deck never appear.
"""

from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from .cards_text import card_name, cards_list


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
