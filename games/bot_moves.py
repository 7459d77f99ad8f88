"""The bot seam: the one function the real bots (games/bots/) will replace.

Bots decide from their seat's view only (its `options`), never from the full state.
"""


def _first_rejection(reject: dict, hand: list) -> list | None:
    """A distinct assignment of hand cards to every unrejected challenge card, or None."""
    indices = sorted(reject, key=int)
    chosen: list = []

    def search(k: int, used: list) -> bool:
        if k == len(indices):
            return True
        for card in reject[indices[k]]:
            if used.count(card) < hand.count(card):
                chosen.append([int(indices[k]), card])
                used.append(card)
                if search(k + 1, used):
                    return True
                used.pop()
                chosen.pop()
        return False

    return chosen if search(0, []) else None


def bot_choose_move(state_view: dict, seat: int, level: str, rng) -> dict:
    """A legal move (without "seat") for `seat`, chosen from `state_view["options"]`.

    Levels are all the same simple player until games/bots/ lands: challenge with the
    lowest card (a random one now and then, so that games cannot cycle), reject when
    possible, else pass; never add; bet 1 on a random other seat.
    """
    options = state_view.get("options") or {}
    hand = state_view.get("hand") or []
    if "challenge" in options:
        cards = options["challenge"]
        card = cards[0] if rng.random() < 0.7 else rng.choice(cards)
        return {"move": "challenge", "cards": [card]}
    if "reject" in options:
        reject = {i: rng.sample(cards, len(cards)) for i, cards in options["reject"].items()}
        pairs = _first_rejection(reject, hand)
        if pairs:
            return {"move": "reject", "pairs": pairs}
        return {"move": "pass"}
    if "done" in options:
        return {"move": "done"}
    if "bet" in options:
        return {"move": "bet", "on": rng.choice(options["bet"]["on"]), "value": 1}
    raise ValueError(f"seat {seat} has nothing to do")
