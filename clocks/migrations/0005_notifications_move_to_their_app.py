"""Notification and EmailOptOut moved to the notifications app: Django's state forgets
them here and notifications.0001 takes them over. Their tables stay as they are."""

from django.db import migrations


class Migration(migrations.Migration):

    dependencies = [
        ("correspondence", "0004_notification_subject_and_tournament_news"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="Notification"),
                migrations.DeleteModel(name="EmailOptOut"),
            ],
            database_operations=[],
        ),
    ]
