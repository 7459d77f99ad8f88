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
# A rating is provisional (shown with a "?") until this many rated games.
PROVISIONAL_GAMES = 10


def initial() -> tuple[float, float]:
    return (MU, SIGMA)


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
