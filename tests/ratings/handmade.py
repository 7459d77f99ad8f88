"""A tiny 3-player game whose every figure is worked out by hand.

Round 1 (trump R, start seat 0): 0 challenges 1 with Y2, 1 rejects with Y3, 0
draws the last card R9. Bets. Seat 1 has no cards and takes feather 2. Seat 2
challenges 0 with B5, 0 rejects with trump R9; 2 is out of cards and takes
feather 1: seat 0 loses the round.
Round 2 (start: round-1 loser, seat 0): 0 challenges 1 with B5, 1 cannot reject
and passes by itself, 0 draws R9. Bets. Seat 2 challenges 0 with Y3, 0 rejects
with R9; 2 takes feather 3, 0 feather 2: seat 1 loses the round.

Bets (on, value): round 1: 0->(1, 1), 1->(0, 1), 2->(0, 0); loser 0.
  seat 0's 1 goes to seat 1; seat 1 keeps its 1; seat 2 won nothing.
Round 2: 0->(1, 1), 1->(2, 1), 2->(1, 1); loser 1.
  seat 0 keeps 1; seat 1's 1 goes to seat 2; seat 2 keeps 1.
Scores: seat 0: feather 2 + 1 = 3; seat 1: feather 2 + 2 = 4; seat 2: feathers
1 + 3 + 2 = 6. Ranking: 2, 1, 0.
Bets on the round loser: seat 0 one of two, seat 1 one of two, seat 2 two of two.
"""

DEAL = {
    "rounds": [
        {"hands": [["Y2"], ["Y3"], ["B5"]], "deck": ["R9"]},
        {"hands": [["B5"], ["Y2"], ["Y3"]], "deck": ["R9"]},
    ],
    "start": 0,
}

MOVES = [
    {"seat": 0, "move": "challenge", "cards": ["Y2"]},
    {"seat": 1, "move": "reject", "pairs": [[0, "Y3"]]},
    {"seat": 0, "move": "bet", "on": 1, "value": 1},
    {"seat": 1, "move": "bet", "on": 0, "value": 1},
    {"seat": 2, "move": "bet", "on": 0, "value": 0},
    {"seat": 2, "move": "challenge", "cards": ["B5"]},
    {"seat": 0, "move": "reject", "pairs": [[0, "R9"]]},
    {"seat": 0, "move": "challenge", "cards": ["B5"]},
    {"seat": 0, "move": "bet", "on": 1, "value": 1},
    {"seat": 1, "move": "bet", "on": 2, "value": 1},
    {"seat": 2, "move": "bet", "on": 1, "value": 1},
    {"seat": 2, "move": "challenge", "cards": ["Y3"]},
    {"seat": 0, "move": "reject", "pairs": [[0, "R9"]]},
]

RESULT = {"scores": [3, 4, 6], "ranking": [2, 1, 0], "round_losers": [0, 1]}

# Per seat: rank, score, feathers per round, rounds lost, bets on loser, bets placed.
FIGURES = [
    {"seat": 0, "rank": 3, "score": 3, "feathers": [[], [2]], "rounds_lost": 1,
     "bets_on_loser": 1, "bets_placed": 2},
    {"seat": 1, "rank": 2, "score": 4, "feathers": [[2], []], "rounds_lost": 1,
     "bets_on_loser": 1, "bets_placed": 2},
    {"seat": 2, "rank": 1, "score": 6, "feathers": [[1], [3]], "rounds_lost": 0,
     "bets_on_loser": 2, "bets_placed": 2},
]
