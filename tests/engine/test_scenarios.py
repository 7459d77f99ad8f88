"""Every [decision] and rare path of RULES.md, on hand-made deals."""

import random

import pytest

from games.engine import IllegalMove, new_game, random_move, summary

from .helpers import bet_all, deal, play

NO_BETS_3 = {0: (1, 0), 1: (2, 0), 2: (0, 0)}


def test_phase_one_ends_mid_draw_and_later_players_draw_nothing():
    s = deal(3, [["R2", "R3", "R4", "R5", "R6"], ["R7", "R8", "R9", "Y7", "Y8"],
                 ["Y2", "Y3", "Y4", "Y5", "Y6"]], ["B9"])
    play(s, 0, "challenge", cards=["R2"])
    play(s, 1, "reject", pairs=[[0, "R7"]])
    assert s.waiting_on == [2]  # the active player has nothing matching: done by itself
    play(s, 2, "done")
    out = summary(s)
    assert (out["phase"], out["stage"], out["waiting_on"]) == (2, "bet", [0, 1, 2])
    assert out["hand_sizes"] == [5, 4, 5]  # the target was not served
    assert out["deck_size"] == 0
    bet_all(s, NO_BETS_3)
    assert (s.stage, s.waiting_on) == ("open", [1])  # all rejected: the target opens


def test_player_without_cards_at_phase_two_takes_a_feather_after_the_bets():
    s = deal(3, [["R2", "R2", "Y2", "Y2", "B2"], ["R3", "R4", "Y3", "Y4", "B3"],
                 ["Y5", "Y6", "Y7", "Y8", "Y9"]], ["B9"])
    play(s, 0, "challenge", cards=["R2", "R2", "Y2", "Y2", "B2"])
    play(s, 1, "reject", pairs=[[0, "R3"], [1, "R4"], [2, "Y3"], [3, "Y4"], [4, "B3"]])
    # the limit is reached, so both attackers are done and the challenge resolves
    assert s.stage == "bet" and [len(h) for h in s.hands] == [1, 0, 5]
    play(s, 0, "bet", on=2, value=1)
    play(s, 1, "bet", on=0, value=1)
    assert s.feathers_taken() == [[], [], []]  # only once every bet is placed
    play(s, 2, "bet", on=1, value=0)
    assert s.feathers_taken() == [[], [2], []] and s.out == [False, True, False]
    # seat 1 would open but is out: seat 2 challenges seat 0, no supporter is left
    assert (s.active, s.target, s.supporter, s.limit) == (2, 0, None, 1)
    play(s, 2, "challenge", cards=["Y5"])
    play(s, 0, "reject", pairs=[[0, "B9"]])  # the target runs out of cards
    out = summary(s)
    assert out["stage"] == "over" and out["round_losers"] == [2]
    assert out["feathers"] == [[1], [2], []]
    # seat 0 won its 1 on the loser; seat 1's bet on seat 0 went to seat 0
    assert out["scores"] == [1 + 1 + 1, 2, 0]


def test_several_players_go_out_after_one_challenge_in_clockwise_order():
    s = deal(4, [["R2", "R7", "R8", "R9", "Y9"], ["R3", "Y4", "Y4"], ["B5", "B6", "B7"],
                 ["Y4"]], ["B9"])
    play(s, 0, "challenge", cards=["R2"])
    play(s, 1, "reject", pairs=[[0, "R3"]])
    assert s.stage == "bet"
    bet_all(s, {0: (1, 0), 1: (0, 1), 2: (0, 1), 3: (0, 0)})
    assert (s.active, s.target, s.supporter, s.limit) == (1, 2, 3, 3)
    play(s, 1, "challenge", cards=["Y4", "Y4"])
    play(s, 2, "reject", pairs=[[0, "B5"], [1, "B6"]])
    assert s.waiting_on == [3]  # the active player has no cards left: done by itself
    play(s, 3, "add", cards=["Y4"])
    play(s, 2, "reject", pairs=[[2, "B7"]])
    out = summary(s)
    assert out["feathers"] == [[], [3], [2], [1]]
    assert out["stage"] == "over" and out["round_losers"] == [0]
    assert out["scores"] == [0, 3 + 1, 2 + 1, 1]


def test_nothing_rejects_a_trump_firebird_so_the_target_passes_by_itself():
    s = deal(3, [["BF", "R3", "R4", "R5", "R6"], ["B9", "B8", "YF", "Y9", "R9"],
                 ["Y2", "Y3", "Y4", "Y5", "Y6"]], ["Y7", "R2", "B2"])
    play(s, 0, "challenge", cards=["BF"])
    # no move was made by seat 1, and nobody holds a card of value 10 to add
    assert s.moves[0] == [{"seat": 0, "move": "challenge", "cards": ["BF"]}]
    assert sorted(s.hands[1]) == sorted(["B9", "B8", "YF", "Y9", "R9", "BF"])
    assert (s.stage, s.active, s.target) == ("open", 2, 0)  # the seat after the target opens


def test_trump_firebird_rejects_any_non_trump_card_but_no_trump():
    hands = [["R9", "Y2", "B2", "R4", "R5"], ["BF", "B3", "Y1", "R1", "Y3"],
             ["Y4", "Y5", "Y6", "Y7", "Y8"]]
    s = deal(3, hands, ["B4", "B5", "B6"])
    play(s, 0, "challenge", cards=["B2"])
    with pytest.raises(IllegalMove, match="cannot reject B2 with BF"):
        play(s, 1, "reject", pairs=[[0, "BF"]])
    play(s, 1, "reject", pairs=[[0, "B3"]])
    s = deal(3, hands, ["B4", "B5", "B6"])
    play(s, 0, "challenge", cards=["R9"])
    play(s, 1, "reject", pairs=[[0, "BF"]])
    assert s.discard == ["R9", "BF"]


def test_firebird_added_only_when_a_firebird_challenge_card_lies_on_the_table():
    hands = [["R5", "RF", "YF", "R2", "R3"], ["BF", "BF", "Y2", "Y3", "Y4"],
             ["Y4", "Y6", "Y7", "Y8", "Y9"]]
    deck = ["R9", "R8", "R7", "R6", "B1"]
    s = deal(3, hands, deck)
    play(s, 0, "challenge", cards=["R5"])
    play(s, 1, "reject", pairs=[[0, "BF"]])  # a rejection Firebird puts 0 on the table
    assert s.stage == "open" and s.active == 1  # nobody could add: resolved at once
    s = deal(3, hands, deck)
    play(s, 0, "challenge", cards=["YF"])
    play(s, 1, "reject", pairs=[[0, "BF"]])
    play(s, 0, "add", cards=["RF"])  # a Firebird challenge card is on the table
    assert s.table_cards == ["YF", "RF"]


def test_firebird_add_is_refused_with_a_reason_when_only_a_rejection_firebird_lies():
    s = deal(3, [["R5", "RF", "Y5", "R2", "R3"], ["BF", "R6", "Y2", "Y3", "Y4"],
                 ["Y1", "Y6", "Y7", "Y8", "Y9"]], ["R9", "R8", "R7", "R6", "B1"])
    play(s, 0, "challenge", cards=["R5"])
    play(s, 1, "reject", pairs=[[0, "BF"]])
    assert s.waiting_on == [0]
    before = summary(s)
    with pytest.raises(IllegalMove, match="cannot add RF: no Firebird challenge card"):
        play(s, 0, "add", cards=["RF"])
    assert summary(s) == before
    play(s, 0, "add", cards=["Y5"])
    # seat 1 cannot reject Y5 (no higher yellow, no trump): it passes and takes all
    assert sorted(s.hands[1]) == sorted(["R6", "Y2", "Y3", "Y4", "R5", "BF", "Y5"])


def test_equal_values_of_the_same_suit_reject_and_so_do_equal_trumps():
    hands = [["R5", "B4", "R2", "R3", "Y2"], ["R5", "B4", "Y3", "Y4", "Y6"],
             ["R8", "Y7", "Y8", "Y9", "R9"]]
    s = deal(3, hands, ["R1", "B1"])
    play(s, 0, "challenge", cards=["R5"])
    play(s, 1, "reject", pairs=[[0, "R5"]])
    assert s.discard == ["R5", "R5"]
    s = deal(3, hands, ["R1", "B1"])
    play(s, 0, "challenge", cards=["B4"])
    play(s, 1, "reject", pairs=[[0, "B4"]])
    assert s.discard == ["B4", "B4"]


def test_lower_card_of_the_same_suit_and_non_trump_firebird_do_not_reject():
    s = deal(3, [["R5", "R2", "R3", "R4", "Y2"], ["R4", "RF", "Y3", "Y4", "R6"],
                 ["Y5", "Y7", "Y8", "Y9", "R9"]], ["R1", "B1"])
    play(s, 0, "challenge", cards=["R5"])
    for card in ("R4", "RF", "Y4"):
        with pytest.raises(IllegalMove, match=f"cannot reject R5 with {card}"):
            play(s, 1, "reject", pairs=[[0, card]])
    play(s, 1, "reject", pairs=[[0, "R6"]])


def test_the_challenge_limit_is_below_five_when_the_target_holds_fewer_cards():
    s = deal(3, [["R2", "Y7", "B7", "R7", "Y9"], ["Y8", "R8", "B8"],
                 ["Y2", "Y4", "Y5", "Y6", "B9"]], ["B1"], start=0)
    assert (s.target, s.supporter, s.limit) == (1, 2, 3)
    with pytest.raises(IllegalMove, match="the limit is 3"):
        play(s, 0, "challenge", cards=["R7", "Y7", "B7", "R7"])
    assert s.hands[0] == ["R2", "Y7", "B7", "R7", "Y9"]
    play(s, 0, "challenge", cards=["R7", "Y7", "B7"])
    play(s, 1, "pass")
    # the limit is reached, so nobody can add and the pass resolves at once
    assert sorted(s.hands[1]) == sorted(["Y8", "R8", "B8", "R7", "Y7", "B7"])
    assert s.stage == "bet" and s.phase == 2  # seat 0 drew the last card


def test_add_is_refused_beyond_the_limit():
    s = deal(3, [["R7", "Y7", "B7", "R7", "Y9"], ["Y8", "R8", "B8"],
                 ["Y2", "Y4", "Y5", "Y6", "R9"]], ["B1"], start=0)
    play(s, 0, "challenge", cards=["R7", "Y7"])
    play(s, 1, "pass")
    with pytest.raises(IllegalMove, match="only 1 more fit under the limit of 3"):
        play(s, 0, "add", cards=["B7", "R7"])
    play(s, 0, "add", cards=["B7"])


def test_with_two_players_left_the_active_player_opens_again_after_a_pass():
    s = deal(3, [["R2", "R2", "Y2", "Y2", "B2"], ["R3", "R4", "Y3", "Y4", "B3"],
                 ["Y5", "Y6", "Y7", "Y8", "Y9"]], ["R8", "B9"])
    play(s, 0, "challenge", cards=["R2", "R2", "Y2", "Y2", "B2"])
    play(s, 1, "reject", pairs=[[0, "R3"], [1, "R4"], [2, "Y3"], [3, "Y4"], [4, "B3"]])
    # seat 0 draws both remaining cards: phase 1 ends, seat 1 has none
    bet_all(s, NO_BETS_3)
    assert s.out == [False, True, False] and (s.active, s.target, s.supporter) == (2, 0, None)
    play(s, 2, "challenge", cards=["Y9"])
    assert s.waiting_on == [0]
    play(s, 0, "pass")
    assert (s.active, s.target) == (2, 0)  # after a pass with two left: the same attacker


def test_round_two_starts_with_the_loser_and_ties_break_on_round_two_feathers():
    rng = random.Random(7)
    ties = 0
    for _ in range(400):
        s = new_game(4, rng)
        moves = 0
        while not s.finished and moves < 3000:
            if s.stage == "over":
                break
            s.apply(random_move(s, rng))
            moves += 1
            if s.round == 2 and s.moves[1] == [] and s.stage == "open":
                assert s.active == s.round_losers[0]
        if not s.finished:
            continue
        scores, second = s.scores, s.feathers[1]
        ranking = s.ranking
        for a, b in zip(ranking, ranking[1:]):
            assert scores[a] >= scores[b]
            if scores[a] == scores[b]:
                ties += 1
                fa = second[a][0] if second[a] else 0
                fb = second[b][0] if second[b] else 0
                assert fa > fb
    assert ties > 0
