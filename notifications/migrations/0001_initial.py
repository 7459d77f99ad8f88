"""Notification and EmailOptOut, taken over from the "correspondence" app (the clocks
app's label) with their tables: the state is created here, the database is left alone."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):

    initial = True

    dependencies = [
        ("correspondence", "0005_notifications_move_to_their_app"),
        ("games", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            database_operations=[],
            state_operations=[
                migrations.CreateModel(
                    name="EmailOptOut",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("user", models.OneToOneField(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="email_opt_out", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={"db_table": "correspondence_emailoptout"},
                ),
                migrations.CreateModel(
                    name="Notification",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True,
                                                   serialize=False, verbose_name="ID")),
                        ("kind", models.CharField(choices=[
                            ("your_turn", "your_turn"), ("almost_out", "almost_out"),
                            ("game_over", "game_over"), ("timeout", "timeout"),
                            ("digest", "digest"), ("tournament", "tournament")],
                            max_length=16)),
                        ("key", models.CharField(max_length=200, unique=True)),
                        ("text", models.CharField(max_length=500)),
                        ("subject", models.CharField(blank=True, default="", max_length=200)),
                        ("created", models.DateTimeField(auto_now_add=True)),
                        ("read", models.BooleanField(default=False)),
                        ("emailed", models.BooleanField(default=False)),
                        ("game", models.ForeignKey(
                            blank=True, null=True, on_delete=django.db.models.deletion.CASCADE,
                            related_name="+", to="games.game")),
                        ("user", models.ForeignKey(
                            on_delete=django.db.models.deletion.CASCADE,
                            related_name="notifications", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "db_table": "correspondence_notification",
                        "ordering": ["-created", "-pk"],
                        "indexes": [models.Index(fields=["user", "read"],
                                                 name="corresponde_user_id_985318_idx")],
                    },
                ),
            ],
        ),
    ]
