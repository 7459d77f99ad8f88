"""Ratings in plain Python: openskill's Plackett-Luce model, no Django here.

A rating is a pair (mu, sigma): the skill estimate and its uncertainty. What the
site shows is the conservative estimate mu - 3 sigma, scaled so that a new
player shows 1000: displayed = round(1000 + 40 * (mu - 3 sigma)). With
openskill's defaults (mu 25, sigma 25/3) a new player's mu - 3 sigma is 0; a
strong, well-known player (mu 35, sigma 1.5) shows 2220; each point of mu
is worth 40 displayed points.
"""

from openskill.models import PlackettLuce

from games.standing import standing_places

MODEL = PlackettLuce()
MU, SIGMA = MODEL.mu, MODEL.sigma
DISPLAY_BASE, DISPLAY_SCALE = 1000, 40
# A rating is provisional (shown with a "?", off the leaderboard) until this many rated
# games against at least this many different opponents (each bot level counts as one):
# two wins over random bots say little of a player.
PROVISIONAL_GAMES = 10
PROVISIONAL_OPPONENTS = 3

# Each bot level is a rated player anchored to its measured strength (docs/bots.md's arena:
# basic wins 73% against three random bots, strong 48.7% against three basic ones; with
# sigma 1 that is mu about 18 and 9 apart). Basic sits where a new player starts. Anchors
# never move, so a table of bots is a fixed yardstick and beating random bots, which
# anyone is expected to do, is worth little.
BOT_SIGMA = 1.0
BOT_ANCHORS = {"random": (7.0, BOT_SIGMA), "basic": (25.0, BOT_SIGMA),
               "strong": (34.0, BOT_SIGMA)}


def initial() -> tuple[float, float]:
    return (MU, SIGMA)


def is_established(games: int, opponents: int) -> bool:
    """Enough rated games against enough different opponents to be on the leaderboard."""
    return games >= PROVISIONAL_GAMES and opponents >= PROVISIONAL_OPPONENTS


def displayed(mu: float, sigma: float) -> int:
    """The number shown to people: the conservative mu - 3 sigma, scaled."""
    return round(DISPLAY_BASE + DISPLAY_SCALE * (mu - 3 * sigma))


def is_provisional(games: int) -> bool:
    return games < PROVISIONAL_GAMES


def rank_order(ranking: list, abandoned=frozenset()) -> list[tuple[int, int]]:
    """(seat, rank) pairs, best first, rank 1 for the winner: games.standing's rule
    (seats that abandoned the game rank last, tied with each other)."""
    return standing_places(ranking, abandoned)


def rate(ratings: list[tuple[float, float]], ranks: list[int] | None = None):
    """New (mu, sigma) for each player, given in rank order (best first).

    `ranks` (1 = best; equal numbers tie) defaults to 1, 2, 3, ...
    """
    if ranks is None:
        ranks = list(range(1, len(ratings) + 1))
    teams = [[MODEL.rating(mu=mu, sigma=sigma)] for mu, sigma in ratings]
    result = MODEL.rate(teams, ranks=ranks)
    return [(team[0].mu, team[0].sigma) for team in result]
