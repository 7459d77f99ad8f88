from django.apps import AppConfig


class GamesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "games"

    def ready(self):
        from django.contrib.auth.signals import user_logged_out

        from accounts.signals import token_revoked

        from .live.ws_auth import on_logged_out, on_token_revoked

        token_revoked.connect(on_token_revoked, dispatch_uid="games-token-revoked")
        user_logged_out.connect(on_logged_out, dispatch_uid="games-logged-out")
