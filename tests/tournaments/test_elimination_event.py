"""An elimination event played by random bots down to its final table."""

from tournaments.models import Tournament
from tournaments.selectors import tournament_rounds, tournament_standings
from tournaments.services import tournament_advance, tournament_start

from .conftest import make_players, make_tournament, register_all
from .test_start_and_rounds import finish_games_randomly


def test_eleven_players_go_down_to_a_final_table(ann, db, random_bots):
    cup = make_tournament(ann, format=Tournament.ELIMINATION, advance_per_table=2)
    players = make_players("p", 11)
    register_all(cup, players)
    tournament_start(tournament_id=cup.pk, user=ann)
    for _ in range(5):
        finish_games_randomly(cup)
        if tournament_advance(tournament_id=cup.pk) == "finished":
            break
    cup.refresh_from_db()
    assert cup.status == Tournament.FINISHED
    rounds = tournament_rounds(cup)
    # 11 -> tables [4, 4, 3], two each go on -> 6 -> [3, 3] -> 4 at the final table.
    assert [sorted(len(t.seat_list) for t in r.tables) for r in rounds] == [[3, 4, 4], [3, 3], [4]]
    final = {s.user_id for s in rounds[-1].tables[0].seat_list}
    second = {s.user_id for t in rounds[1].tables for s in t.seat_list}
    assert final < second
    rows = tournament_standings(cup)
    assert {r.user.pk for r in rows[:4]} == final
    assert [r.eliminated_in for r in rows] == [None] * 4 + [2, 2] + [1] * 5
    winner_game = rounds[-1].tables[0].game
    winner_seat = winner_game.result["ranking"][0]
    assert rows[0].user == winner_game.seats.get(index=winner_seat).user
