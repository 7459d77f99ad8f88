from django.apps import AppConfig


class SocialConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "social"
    verbose_name = "Table talk, friends, invitations and blocks"

    def ready(self):
        from . import listeners

        listeners.connect()
