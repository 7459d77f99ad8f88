from django.apps import AppConfig


class ClocksConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "clocks"
    # The label the app had as "correspondence" (clocks and notifications together): kept
    # so its tables (correspondence_seatclock, ...) and its migration history stay as they
    # are in every existing database.
    label = "correspondence"
    verbose_name = "Clocks and vacations"

    def ready(self):
        from . import listeners

        listeners.connect()
