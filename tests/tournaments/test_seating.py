"""Table sizes, Swiss grouping with repeat avoidance, and elimination fields."""

import itertools
import random

import pytest

from tournaments.points import TableResult, standings
from tournaments.seating import (
    elimination_advance,
    elimination_field_sizes,
    elimination_tables,
    met_pairs,
    repeat_count,
    swiss_tables,
    table_sizes,
)


def expected_sizes_for_tables_of_four(n: int) -> list[int]:
    """The documented rule: as many 4s as possible; the remainder becomes one 5 (4q+1),
    two 3s (4q+2) or one 3 (4q+3)."""
    q, r = divmod(n, 4)
    return {0: [4] * q, 1: [5] + [4] * (q - 1), 2: [4] * (q - 1) + [3, 3], 3: [4] * q + [3]}[r]


@pytest.mark.parametrize("n", range(3, 41))
def test_tables_of_four_for_every_count_from_3_to_40(n):
    sizes = table_sizes(n)
    assert sum(sizes) == n
    assert all(3 <= s <= 5 for s in sizes)
    assert sizes == sorted(sizes, reverse=True)
    assert sizes == expected_sizes_for_tables_of_four(n)


@pytest.mark.parametrize("preferred", [3, 4, 5])
@pytest.mark.parametrize("n", range(3, 41))
def test_no_partition_has_more_tables_of_the_preferred_size(n, preferred):
    sizes = table_sizes(n, preferred)
    assert sum(sizes) == n and all(3 <= s <= 5 for s in sizes)
    most = max(
        c[preferred - 3]
        for c in itertools.product(range(n // 3 + 1), repeat=3)
        if 3 * c[0] + 4 * c[1] + 5 * c[2] == n
    )
    assert sizes.count(preferred) == most


def test_worked_examples_of_table_sizes():
    assert table_sizes(5) == [5]
    assert table_sizes(6) == [3, 3]
    assert table_sizes(7) == [4, 3]
    assert table_sizes(9) == [5, 4]  # one 4 beats [3, 3, 3], which has none
    assert table_sizes(13) == [5, 4, 4]
    assert table_sizes(9, preferred=3) == [3, 3, 3]
    assert table_sizes(11, preferred=5) == [5, 3, 3]


@pytest.mark.parametrize("bad", [0, 2, -4, "7", 4.0])
def test_fewer_than_three_players_cannot_be_seated(bad):
    with pytest.raises(ValueError):
        table_sizes(bad)


def test_first_round_groups_players_by_seed():
    assert swiss_tables(list("abcdefghijklm")) == [list("abcde"), list("fghi"), list("jklm")]


def play_round(tables, rng):
    return [
        TableResult(rng.sample(t, len(t)), [rng.randint(0, 20) for _ in t]) for t in tables
    ]


def ranked_players(players, results):
    return [row.player for row in standings(players, results)]


# With at least as many first-round tables as seats at the biggest table, every table of
# round 2 can draw from distinct first-round tables (17 -> [5,4,4,4] cannot).
ENOUGH = [n for n in range(3, 41) if len(table_sizes(n)) >= max(table_sizes(n))]


@pytest.mark.parametrize("n", ENOUGH)
def test_with_enough_players_no_one_meets_an_opponent_again_in_round_two(n):
    assert ENOUGH[0] == 14
    for seed in range(30):
        rng = random.Random(seed)
        players = list(range(n))
        first = swiss_tables(players)
        results = play_round(first, rng)
        second = swiss_tables(ranked_players(players, results), met_pairs(first))
        assert sorted(p for t in second for p in t) == players
        assert repeat_count(second, met_pairs(first)) == 0, (n, seed, first, second)


def test_swaps_move_a_repeat_to_the_adjacent_table():
    # a..d met at one table; e..h at another. Standing order would seat them again.
    met = met_pairs([list("abcd"), list("efgh")])
    tables = swiss_tables(list("abcdefgh"), met)
    assert repeat_count(tables, met) < repeat_count([list("abcd"), list("efgh")], met)
    assert repeat_count(tables, met) == repeat_count([list("abef"), list("cdgh")], met)


def test_grouping_still_follows_standings_when_repeats_cannot_be_avoided():
    met = met_pairs([list("abcde")])
    assert swiss_tables(list("abcde"), met) == [list("abcde")]


def test_later_rounds_keep_repeats_below_plain_grouping():
    rng = random.Random(7)
    players = list(range(24))
    tables, results, seen = swiss_tables(players), [], []
    for _ in range(4):
        results += play_round(tables, rng)
        seen += tables
        ranked = ranked_players(players, results)
        met = met_pairs(seen)
        tables = swiss_tables(ranked, met)
        plain = [ranked[i : i + 4] for i in range(0, 24, 4)]
        assert repeat_count(tables, met) <= repeat_count(plain, met)


@pytest.mark.parametrize("advance", [1, 2, 3])
@pytest.mark.parametrize("preferred", [3, 4, 5])
@pytest.mark.parametrize("n", range(3, 41))
def test_elimination_shrinks_every_field_to_one_final_table(n, preferred, advance):
    fields = elimination_field_sizes(n, preferred, advance)
    assert fields[0] == n
    assert 3 <= fields[-1] <= 5
    assert all(a > b for a, b in itertools.pairwise(fields))
    assert all(f > 5 for f in fields[:-1])


def test_elimination_worked_examples():
    assert elimination_field_sizes(16, 4, 2) == [16, 8, 4]
    assert elimination_field_sizes(13, 4, 1) == [13, 3]
    # Two tables of three: one each would leave two, too few; two each make a final of 4.
    assert elimination_advance([3, 3], 1) == 2
    # Someone leaves every table, however many the organiser wants to advance.
    assert elimination_advance([4, 3], 3) == 2
    assert elimination_advance([4], 2) == 0


def test_elimination_seats_the_seeds_in_a_serpentine():
    assert elimination_tables(list(range(8))) == [[0, 3, 4, 7], [1, 2, 5, 6]]
    assert elimination_tables(list(range(13))) == [[0, 5, 6, 11, 12], [1, 4, 7, 10], [2, 3, 8, 9]]
    assert elimination_tables(list(range(4))) == [[0, 1, 2, 3]]


def test_elimination_runs_down_to_a_final_table():
    rng = random.Random(3)
    field = list(range(23))
    rounds = 0
    while len(field) > 5:
        tables = elimination_tables(field)
        k = elimination_advance([len(t) for t in tables], 2)
        results = play_round(tables, rng)
        field = [p for r in results for p in r.players[:k]]
        rounds += 1
    assert rounds == 3 and len(field) == 4  # 23 -> 12 -> 6 -> 4
