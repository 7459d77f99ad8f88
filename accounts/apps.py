from django.apps import AppConfig


class AccountsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"

    def ready(self):
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from . import token_cache
        from .models import ApiToken

        # any change to a token or a user may end a token: remembered ones are forgotten
        for model in (ApiToken, get_user_model()):
            for signal in (post_save, post_delete):
                signal.connect(token_cache.on_row_changed, sender=model,
                               dispatch_uid=f"token_cache.{signal}.{model.__name__}")
