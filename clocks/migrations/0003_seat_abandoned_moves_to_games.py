from django.db import migrations


def copy_to_seats(apps, schema_editor):
    """games.Seat.abandoned is the one record now: carry over every flag set so far."""
    SeatStatus = apps.get_model("correspondence", "SeatStatus")
    Seat = apps.get_model("games", "Seat")
    for status in SeatStatus.objects.filter(abandoned=True).iterator():
        Seat.objects.filter(game_id=status.game_id, index=status.seat).update(
            abandoned=True, abandoned_reason="timeouts", abandoned_at=status.abandoned_at)


def copy_back(apps, schema_editor):
    SeatStatus = apps.get_model("correspondence", "SeatStatus")
    Seat = apps.get_model("games", "Seat")
    for seat in Seat.objects.filter(abandoned=True, abandoned_reason="timeouts").iterator():
        SeatStatus.objects.update_or_create(
            game_id=seat.game_id, seat=seat.index,
            defaults={"abandoned": True, "abandoned_at": seat.abandoned_at})


class Migration(migrations.Migration):

    dependencies = [
        ("correspondence", "0002_notification_kinds_without_tournament"),
        ("games", "0002_seat_abandoned"),
    ]

    operations = [
        migrations.RunPython(copy_to_seats, copy_back),
        migrations.DeleteModel(name="SeatStatus"),
    ]
