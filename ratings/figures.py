"""Per-seat figures of one game, from its deal and move log (plain Python)."""

from games.engine import state_from_deal
from games.standing import standing_places


def game_figures(deal: dict, payloads: list, result: dict | None = None,
                 abandoned=frozenset()) -> list[dict]:
    """Score, rank, feathers and bets of every seat, by replaying the game.

    The replay is the truth for feathers and bets. A game that ended before its
    last move (someone abandoned it) takes scores and ranking from `result`. Ranks follow
    games.standing, as the table and the ratings do: `abandoned` seats rank last.
    """
    state = state_from_deal(deal)
    for payload in payloads:
        state.apply(payload)
    if state.finished:
        scores, ranking = state.scores, state.ranking
    else:
        if not result or "ranking" not in result:
            raise ValueError("the game is neither finished nor has a stored ranking")
        ranking = list(result["ranking"])
        scores = list(result.get("scores") or state.scores)
    place = dict(standing_places(ranking, abandoned))
    figures = []
    for seat in range(state.n):
        bets = [rb[seat] for rb in state.bet_history if rb[seat] is not None]
        losers = state.round_losers
        figures.append({
            "seat": seat,
            "rank": place[seat],
            "score": scores[seat],
            "feathers": [rf[seat][:] for rf in state.feathers],
            "rounds_lost": sum(1 for loser in losers if loser == seat),
            "bets_placed": len(bets),
            "bets_on_loser": sum(
                1 for r, rb in enumerate(state.bet_history)
                if rb[seat] is not None and rb[seat][0] == losers[r]
            ),
        })
    return figures
