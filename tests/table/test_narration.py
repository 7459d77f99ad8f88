"""The game log in words (games/narration.py): every move said, nothing hidden revealed."""

import random
import re

import pytest

from games import services
from games.engine import deal_game, random_move, state_from_deal
from games.engine.facts import apply_told
from games.models import Game
from games.narration import event_text, lines_for
from games.selectors import game_log
from tests.games_helpers import random_legal_move

NAMES = ["ann", "bob", "cat", "dan", "eve"]


def _played(players: int, seed: int):
    state = state_from_deal(deal_game(players))
    rng = random.Random(seed)
    events = []
    while not state.finished:
        move = random_move(state, rng)
        events.append((len(events) + 1, move, apply_told(state, move)))
    return state, events


@pytest.mark.parametrize("players", [3, 4, 5])
def test_every_move_of_a_whole_game_is_said_in_words(players):
    state, events = _played(players, seed=players)
    names = NAMES[:players]
    for you in [None, *range(players)]:
        lines = lines_for([(seq, ev) for seq, _m, ev in events], names, you)
        said = {line["seq"] for line in lines}
        assert said == set(range(1, len(events) + 1))  # no move goes unsaid
        text = " ".join(line["text"] for line in lines)
        assert not re.search(r"(?<![A-Za-z0-9])[RYB][1-9F](?![A-Za-z0-9])", text)  # no codes
        assert len(re.findall(r"Round \d is over", text)) == 2 and "The game is over" in text
    assert [e["loser"] for _s, _m, ev in events for e in ev if e["kind"] == "round_over"] == \
        state.round_losers


@pytest.mark.parametrize("players", [3, 5])
def test_words_shared_by_the_readers_of_a_change_are_each_readers_own_words(players):
    from django.utils import translation

    _state, events = _played(players, seed=20 + players)
    names = NAMES[:players]
    for seq, _move, ev in events:
        said: dict = {}  # as views_build shares it among a change's readers
        for you, language in [(None, "en"), *((s, "ja" if s % 2 else "en")
                                              for s in range(players))]:
            with translation.override(language):
                alone = lines_for([(seq, ev)], names, you)
                assert lines_for([(seq, ev)], names, you, said) == alone, (seq, you)


def test_a_bet_reads_as_placed_to_everyone_but_its_owner_until_it_is_revealed():
    _state, events = _played(4, seed=11)
    bets = [(seq, move) for seq, move, _ev in events if move["move"] == "bet"]
    assert bets
    for seq, move in bets:
        owner = move["seat"]
        ev = next(ev for s, _m, ev in events if s == seq)
        for you in [None, *range(4)]:
            text = event_text(ev[0], NAMES[:4], you)
            if you == owner:
                assert text == f"You bet {move['value']} on {NAMES[move['on']]}."
            else:
                assert text == f"{NAMES[owner]} places a bet."  # neither target nor value


def test_a_pass_says_who_takes_how_many_cards():
    _state, events = _played(3, seed=5)
    texts = [event_text(e, NAMES[:3], None) for _s, _m, ev in events for e in ev]
    takes = [t for t in texts if re.search(r"(passes and takes|takes) \d+ cards?\.$", t)]
    assert takes, texts[:40]
    assert all(not re.search(r"\b1 cards\b", t) for t in texts)  # plurals right


@pytest.mark.django_db
def test_the_log_of_a_game_in_progress_shows_the_reader_only_their_own_bet(ann, bob, cat):
    game = services.game_create(creator=ann, players=3)
    for user in (bob, cat):
        services.game_join(game_id=game.pk, user=user)
    rng = random.Random(8)
    game.refresh_from_db()
    while game.status == Game.PLAYING:
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=game.seats.get(index=seat).user, seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game.refresh_from_db()
        if any(b for b in game.moves.values_list("payload__move", flat=True) if b == "bet"):
            break
    seats = {s.user.username: s.index for s in game.seats.select_related("user")}
    for user in (ann, bob, cat):
        lines = [line["text"] for line in game_log(game, user)]
        mine = [t for t in lines if t.startswith("You bet")]
        others = [t for t in lines if " places a bet." in t]
        bettors = list(game.moves.filter(payload__move="bet").values_list("seat", flat=True))
        assert len(mine) == bettors.count(seats[user.username])
        assert len(others) == len(bettors) - len(mine)
