from django.apps import AppConfig


class CorrespondenceConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "correspondence"
    verbose_name = "Clocks, vacations and notifications"

    def ready(self):
        from . import listeners

        listeners.connect()
