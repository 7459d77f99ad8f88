"""Notification and EmailOptOut moved from the "correspondence" app (now the clocks app,
which keeps that label) to notifications without touching their tables: a database
migrated before the move keeps every row."""

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from notifications.models import EmailOptOut, Notification

BEFORE = [("correspondence", "0004_notification_subject_and_tournament_news"),
          ("notifications", None)]


def _migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)
    return executor


@pytest.mark.django_db(transaction=True)
def test_notices_written_before_the_move_are_read_after_it(ann):
    executor = _migrate(BEFORE)
    old = executor.loader.project_state(BEFORE[0]).apps
    OldNotification = old.get_model("correspondence", "Notification")
    OldOptOut = old.get_model("correspondence", "EmailOptOut")
    OldNotification.objects.create(user_id=ann.pk, kind="your_turn", key="your_turn:1:0:1",
                                   text="Game 1: it is your turn.")
    OldOptOut.objects.create(user_id=ann.pk)

    _migrate(MigrationExecutor(connection).loader.graph.leaf_nodes())

    [note] = Notification.objects.filter(user=ann)
    assert (note.key, note.text, note.read) == ("your_turn:1:0:1", "Game 1: it is your turn.",
                                                False)
    assert EmailOptOut.objects.filter(user=ann).exists()
    assert Notification._meta.db_table == "correspondence_notification"
