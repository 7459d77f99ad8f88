import random
from collections import Counter

from games.bots import determinize
from games.engine import full_deck, legal_moves, view


def canonical(moves):
    """Moves as a sorted list of JSON strings (list order follows hand order)."""
    import json
    return sorted(json.dumps(m, sort_keys=True) for m in moves)


def test_determinized_state_shows_the_same_view_and_legal_moves(sample_positions):
    rng = random.Random(4)
    for state in sample_positions[::5]:
        for seat in state.waiting_on:
            v = view(state, seat)
            det = determinize(v, seat, rng)
            assert view(det, seat) == v
            assert canonical(legal_moves(det, seat)) == canonical(legal_moves(state, seat))


def test_determinized_cards_are_a_subset_of_the_game_cards(sample_positions):
    rng = random.Random(5)
    for state in sample_positions[::5]:
        seat = state.waiting_on[0]
        det = determinize(view(state, seat), seat, rng)
        in_play = Counter(c for h in det.hands for c in h)
        in_play.update(det.deck[det.deck_pos:])
        in_play.update(det.discard)
        in_play.update(det.table_cards)
        in_play.update(r for r in det.table_rejections if r is not None)
        assert not in_play - Counter(full_deck(state.n))
        assert [len(h) for h in det.hands] == [len(h) for h in state.hands]
        assert det.deck_size == state.deck_size
        if det.deck_size:
            assert det.deck[-1] == state.trump_card


def test_determinized_games_play_on_to_the_end_of_the_round(sample_positions):
    from games.engine import random_move
    rng = random.Random(6)
    for state in sample_positions[::20]:
        seat = state.waiting_on[0]
        det = determinize(view(state, seat), seat, rng)
        steps = 0
        while det.stage != "over" and steps < 2000:
            det.apply(random_move(det, rng))
            steps += 1


def test_fast_determinizations_deal_like_the_reference_ones(sample_positions):
    from games.bots.determinize import Sampler
    from games.engine.fast import FastState

    for state in sample_positions[::7]:
        seat = state.waiting_on[0]
        sampler = Sampler(view(state, seat), seat)
        for seed in range(3):
            ref = FastState.from_state(sampler.sample(random.Random(seed)))
            fast = sampler.sample_fast(random.Random(seed))
            for name in FastState.__slots__:
                assert getattr(fast, name) == getattr(ref, name), name
