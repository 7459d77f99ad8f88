from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError

BOT_NAME_PREFIX = "bot-"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        # "bot-…" names belong to the house bots; people must not pass for one.
        if username.lower().startswith(BOT_NAME_PREFIX):
            raise ValidationError(f"Usernames starting with “{BOT_NAME_PREFIX}” are for bots.")
        return super().clean_username(username, shallow=shallow)
