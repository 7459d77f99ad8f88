from allauth.account.adapter import DefaultAccountAdapter
from django.core.exceptions import ValidationError
from django.utils.translation import gettext as _

BOT_NAME_PREFIX = "bot-"
GUEST_NAME_PREFIX = "guest-"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        # "bot-…" names belong to the house bots; people must not pass for one.
        if username.lower().startswith(BOT_NAME_PREFIX):
            raise ValidationError(f"Usernames starting with “{BOT_NAME_PREFIX}” are for bots.")
        # "guest-…" names mark temporary accounts.
        if username.lower().startswith(GUEST_NAME_PREFIX):
            raise ValidationError(
                _("Usernames starting with “%(prefix)s” are for guests.")
                % {"prefix": GUEST_NAME_PREFIX})
        return super().clean_username(username, shallow=shallow)
