"""Points per placement and the standings' tie-breaks, on worked examples."""

import pytest

from tournaments.points import (
    DEFAULT_POINTS,
    TableResult,
    clean_points_scheme,
    placement_points,
    standings,
)


def test_default_points_give_one_less_per_place_down_to_zero():
    assert [placement_points(4, p) for p in range(4)] == [3, 2, 1, 0]
    assert [placement_points(3, p) for p in range(3)] == [2, 1, 0]
    assert [placement_points(5, p) for p in range(5)] == [4, 3, 2, 1, 0]


def test_an_organiser_scheme_replaces_only_the_sizes_it_names():
    scheme = clean_points_scheme({"4": [5, 3, 1, 0]})
    assert scheme["4"] == [5, 3, 1, 0]
    assert scheme["3"] == DEFAULT_POINTS["3"] and scheme["5"] == DEFAULT_POINTS["5"]


@pytest.mark.parametrize(
    "bad",
    [{"4": [3, 2, 1]}, {"6": [1] * 6}, {"3": [2, 1, -1]}, {"3": [0, 1, 2]}, {"3": "210"},
     {"5": [4, 3, 2, 1, 0.5]}],
)
def test_bad_schemes_are_refused(bad):
    with pytest.raises(ValueError):
        clean_points_scheme(bad)


# Seven players, seeded g f e d c b a (g is seed 1), two rounds.
#   round 1: a b c d (4 players: 3/2/1/0), scores 10 8 5 1;  e f g (3: 2/1/0), scores 9 4 2
#   round 2: e a f b, scores 7 6 3 2;                        g d c, scores 8 5 0
SEEDS = list("gfedcba")
RESULTS = [
    TableResult(list("abcd"), [10, 8, 5, 1]),
    TableResult(list("efg"), [9, 4, 2]),
    TableResult(list("eafb"), [7, 6, 3, 2]),
    TableResult(list("gdc"), [8, 5, 0]),
]


def test_worked_example_points_scores_and_opponents_points():
    rows = {r.player: r for r in standings(SEEDS, RESULTS)}
    # a: 3 + 2 = 5 points, 10 + 6 = 16; shared tables with b c d (2+1+1) and e b f (5+2+2)
    assert (rows["a"].points, rows["a"].score, rows["a"].opponents_points) == (5, 16, 13)
    # e: 2 + 3; 9 + 7; with f g (2+2) and a b f (5+2+2)
    assert (rows["e"].points, rows["e"].score, rows["e"].opponents_points) == (5, 16, 13)
    # b: 2 + 0; 8 + 2; with a c d (5+1+1) and e a f (5+5+2)
    assert (rows["b"].points, rows["b"].score, rows["b"].opponents_points) == (2, 10, 19)
    # g: 0 + 2; 2 + 8; with e f (5+2) and d c (1+1)
    assert (rows["g"].points, rows["g"].score, rows["g"].opponents_points) == (2, 10, 9)
    assert rows["a"].placements == [1, 2] and rows["c"].placements == [3, 3]
    assert all(r.played == 2 for r in rows.values())


def test_ties_break_on_score_then_opponents_points_then_seed():
    order = [r.player for r in standings(SEEDS, RESULTS)]
    # e and a tie on everything: the better seed (e) goes first.
    # b and g tie on points and score: b met stronger opponents.
    # f has 2 points too but a lower score. d and c: 1 point each, d scored more.
    assert order == ["e", "a", "b", "g", "f", "d", "c"]
    assert [r.rank for r in standings(SEEDS, RESULTS)] == [1, 2, 3, 4, 5, 6, 7]


def test_a_custom_scheme_changes_the_order():
    rows = standings(SEEDS, RESULTS, {"4": [5, 3, 1, 0]})
    by = {r.player: r for r in rows}
    assert by["a"].points == 5 + 3 and by["e"].points == 2 + 5
    assert rows[0].player == "a"


def test_players_without_results_are_listed_by_seed_with_nothing():
    rows = standings(["ann", "bob", "cat"], [])
    assert [(r.player, r.points, r.rank) for r in rows] == [("ann", 0, 1), ("bob", 0, 2),
                                                            ("cat", 0, 3)]
