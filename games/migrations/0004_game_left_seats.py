from django.db import migrations, models


def fill(apps, schema_editor):
    Seat = apps.get_model("games", "Seat")
    Game = apps.get_model("games", "Game")
    left: dict[int, list] = {}
    for game_id, index in Seat.objects.filter(abandoned=True).values_list("game_id", "index"):
        left.setdefault(game_id, []).append(index)
    for game_id, seats in left.items():
        Game.objects.filter(pk=game_id).update(left_seats=sorted(seats))


class Migration(migrations.Migration):
    dependencies = [("games", "0003_game_rematch_of")]

    operations = [
        migrations.AddField(model_name="game", name="left_seats",
                            field=models.JSONField(default=list)),
        migrations.RunPython(fill, migrations.RunPython.noop),
    ]
