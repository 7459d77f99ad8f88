import random

import pytest

from games import services
from games.engine import new_game, view
from games.models import Game
from games.selectors import game_state, game_view_for
from tests.conftest import make_user
from tests.games_helpers import api_get, assert_view_hides_cards, bearer, random_legal_move


@pytest.mark.django_db
@pytest.mark.parametrize("players", [3, 4, 5])
def test_no_view_shows_another_hand_or_the_deck(client, players):
    users = [make_user(f"p{i}") for i in range(players)]
    stranger = make_user("stranger")
    game = services.game_create(creator=users[0], players=players)
    for user in users[1:]:
        services.game_join(game_id=game.pk, user=user)
    game.refresh_from_db()
    by_seat = {s.index: s.user for s in game.seats.all()}
    auth = {seat: bearer(user) for seat, user in by_seat.items()}
    rng = random.Random(players)
    ply = 0
    while game.status == Game.PLAYING and ply < 250:
        state = game_state(game)
        for seat, user in by_seat.items() if ply % 5 == 0 else ():
            assert_view_hides_cards(game_view_for(game, user), state, seat)
        assert_view_hides_cards(game_view_for(game, stranger), state, None)
        if ply % 7 == 0:  # the JSON as sent, now and then
            seat = rng.randrange(players)
            sent = api_get(client, f"/api/v1/games/{game.pk}", auth[seat]).json()
            assert_view_hides_cards(sent, state, seat)
        seat = game.waiting_on[0]
        services.move_play(game_id=game.pk, user=by_seat[seat], seq=game.seq,
                           move=random_legal_move(game, seat, rng))
        game.refresh_from_db()
        ply += 1


def test_engine_views_of_many_random_states_hide_the_secrets():
    from games.engine import random_move

    rng = random.Random(99)
    for _ in range(15):
        state = new_game(rng.choice([3, 4, 5]), rng)
        while not state.finished:
            for seat in [None, *range(state.n)]:
                assert_view_hides_cards(view(state, seat), state, seat)
            state.apply(random_move(state, rng))


def test_the_checker_catches_a_leaked_hand_or_deck_card():
    state = new_game(4, random.Random(1))
    for leak in (state.hands[1], state.deck[:1]):
        leaked = {**view(state, 0), "extra": list(leak)}
        with pytest.raises(AssertionError):
            assert_view_hides_cards(leaked, state, 0)
