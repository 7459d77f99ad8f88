from allauth.account.adapter import DefaultAccountAdapter
from django.conf import settings
from django.core.exceptions import ValidationError
from django.utils import translation
from django.utils.translation import gettext as _

BOT_NAME_PREFIX = "bot-"


class AccountAdapter(DefaultAccountAdapter):
    def clean_username(self, username, shallow=False):
        # "bot-…" names belong to the house bots; people must not pass for one.
        if username.lower().startswith(BOT_NAME_PREFIX):
            message = _("Usernames starting with “%(prefix)s” are for bots.")
            raise ValidationError(message % {"prefix": BOT_NAME_PREFIX})
        return super().clean_username(username, shallow=shallow)

    def save_user(self, request, user, form, commit=True):
        # Mail reaches players with no request to ask: keep the language they signed up in.
        language = translation.get_language()
        if language in dict(settings.LANGUAGES):
            user.language = language
        return super().save_user(request, user, form, commit=commit)
