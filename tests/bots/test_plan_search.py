"""The strong bot's plan search: basic play for the other seats, a tree of its own decisions."""
import random

from games.bots import choose_move, plan
from games.bots.determinize import Sampler
from games.bots.fastbasic import fast_basic_move
from games.bots.ismcts import candidates
from games.bots.rollout import MAX_ROLLOUT, evaluate_heuristic, paired_totals
from games.engine import legal_moves, new_game, random_move, view
from games.engine.fast import OVER


def decisions(players: int, seed: int, count: int):
    """(state, seat) pairs where a seat has a choice to make, from a game of random moves."""
    rng = random.Random(seed)
    state = new_game(players, rng)
    found = []
    while not state.finished and len(found) < count:
        seat = state.waiting_on[0]
        if state.stage != "bet":
            f = Sampler(view(state, seat), seat).sample_fast(random.Random(0))
            if len(candidates(f, seat)) > 1:
                found.append((state.clone(), seat))
        state.apply(random_move(state, rng))
    return found


def basic_game(f, seat: int):
    """`f` played on as a playout on a fresh tree should: the bot's first choice is its
    first candidate (the basic move), then basic play; returns the number of moves."""
    first, depth = True, 0
    while f.stage != OVER and depth < MAX_ROLLOUT:
        mover = f.mover()
        if mover == seat and first:
            cands = candidates(f, seat)
            f.apply(cands[0])
            first = len(cands) == 1
        else:
            f.apply(fast_basic_move(f, mover))
        depth += 1
    return depth


def test_a_playout_on_a_fresh_tree_is_the_basic_game():
    for state, seat in decisions(4, 1, 12):
        f = Sampler(view(state, seat), seat).sample_fast(random.Random(5))
        played, reference = f.clone(), f.clone()
        reward = plan._playout(played, seat, plan.Node(), evaluate_heuristic)
        basic_game(reference, seat)
        assert played.scores() == reference.scores() and played.out == reference.out
        assert reward == evaluate_heuristic(reference, seat)


def test_every_candidate_is_judged_on_every_deal():
    state, seat = decisions(4, 2, 1)[0]
    stats: dict = {}
    moves, totals, trees = plan.plan_trees(Sampler(view(state, seat), seat), seat,
                                           random.Random(1), iterations=30, stats=stats)
    assert stats["deals"] == 30 and stats["iterations"] == 30 * len(moves)
    assert len(totals) == len(trees) == len(moves) > 1


def test_the_tree_holds_only_the_bots_own_moves_and_tries_several_of_them():
    state, seat = decisions(4, 3, 1)[0]
    _, _, trees = plan.plan_trees(Sampler(view(state, seat), seat), seat, random.Random(2),
                                  iterations=200)
    widest = 0
    stack = list(trees)
    while stack:
        node = stack.pop()
        widest = max(widest, len(node.children))
        for move, child in node.children.items():
            assert move[1] == seat
            stack.append(child)
    assert widest >= 2  # later decisions of its own were not all left to the basic policy


def test_the_strong_bot_plays_the_same_legal_move_for_the_same_view_and_seed():
    for state, seat in decisions(5, 4, 6):
        v = view(state, seat)
        move = choose_move(v, seat, random.Random(3), "strong", iterations=15)
        assert move in legal_moves(state, seat)
        assert choose_move(v, seat, random.Random(3), "strong", iterations=15) == move


def test_a_discount_makes_a_longer_way_to_the_same_result_worth_less(monkeypatch):
    state, seat = decisions(4, 1, 1)[0]
    f = Sampler(view(state, seat), seat).sample_fast(random.Random(5))
    plain, discounted, reference = f.clone(), f.clone(), f.clone()
    reward = plan._playout(plain, seat, plan.Node(), evaluate_heuristic)
    monkeypatch.setattr(plan, "DISCOUNT", 0.99)
    less = plan._playout(discounted, seat, plan.Node(), evaluate_heuristic)
    moves = basic_game(reference, seat)
    assert moves > 10 and reward > 0
    assert abs(less - reward * 0.99 ** moves) < 1e-12 and less < reward


def basic_model_trees(sampler, seat: int, rng, iterations: int):
    """The plan search as it was before the opponents' noise: every other seat basic."""
    moves = candidates(sampler.sample_fast(rng), seat)
    trees = [plan.Node() for _ in moves]
    totals, _ = paired_totals(
        sampler, rng, moves, lambda g, j: plan._playout(g, seat, trees[j], evaluate_heuristic),
        iterations, None)
    return moves, totals


def test_without_opponent_noise_the_search_models_the_others_as_basic_bots(monkeypatch):
    monkeypatch.setattr(plan, "OPPONENT_EPS", (0.0,) * 4)
    for state, seat in decisions(4, 6, 3):
        sampler = Sampler(view(state, seat), seat)
        moves, totals, _ = plan.plan_trees(sampler, seat, random.Random(7), iterations=40)
        assert (moves, totals) == basic_model_trees(sampler, seat, random.Random(7), 40)


def test_opponent_noise_changes_the_search_and_is_reproducible_for_a_seeded_rng(monkeypatch):
    monkeypatch.setattr(plan, "OPPONENT_EPS", (0.3,) * 4)
    changed = False
    for state, seat in decisions(4, 6, 3):
        sampler = Sampler(view(state, seat), seat)
        moves, totals, _ = plan.plan_trees(sampler, seat, random.Random(7), iterations=40)
        assert plan.plan_trees(sampler, seat, random.Random(7), iterations=40)[:2] == (
            moves, totals)
        changed |= totals != basic_model_trees(sampler, seat, random.Random(7), 40)[1]
    assert changed


def test_with_noise_on_every_move_the_others_still_play_the_round_out():
    rewards, basic_rewards = [], []
    for state, seat in decisions(4, 8, 6):
        sampler = Sampler(view(state, seat), seat)
        f = sampler.sample_fast(random.Random(5))
        always = (plan._LCG_M,) * 4  # every other seat's move is a random candidate
        rewards.append(plan._playout(f, seat, plan.Node(), evaluate_heuristic, 12345, always))
        assert f.stage == OVER
        same_deal = sampler.sample_fast(random.Random(5))
        basic_rewards.append(plan._playout(same_deal, seat, plan.Node(), evaluate_heuristic))
    assert rewards != basic_rewards  # the noise played other moves than the basic ones
