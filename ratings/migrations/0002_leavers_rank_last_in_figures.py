"""Figures stored before leavers ranked last in them: their ranks follow games.standing
now, as the table and the ratings do (the profile showed a resigned game as "place 3")."""

from django.db import migrations

from games.standing import standing_places


def leavers_last(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    GameStat = apps.get_model("ratings", "GameStat")
    Game = apps.get_model("games", "Game")
    left: dict[int, set] = {}
    for game_id, index in Seat.objects.filter(abandoned=True).values_list("game_id", "index"):
        left.setdefault(game_id, set()).add(index)
    for game in Game.objects.filter(pk__in=left).only("id", "result"):
        ranking = (game.result or {}).get("ranking")
        if not ranking:
            continue
        for seat, place in standing_places(ranking, left[game.pk]):
            GameStat.objects.filter(game_id=game.pk, seat=seat).update(rank=place)


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0001_initial"),
        ("games", "0003_game_rematch_of"),
    ]

    operations = [migrations.RunPython(leavers_last, migrations.RunPython.noop)]
