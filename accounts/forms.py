import zoneinfo

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import User


def _timezone_choices():
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


def _language_choices():
    return [("", _("The browser's language")), *settings.LANGUAGES]


class SettingsForm(forms.ModelForm):
    language = forms.ChoiceField(label=_("Language"), choices=_language_choices, required=False)
    timezone = forms.ChoiceField(label=_("Time zone"), choices=_timezone_choices)

    class Meta:
        model = User
        fields = ["language", "email_on_turn", "timezone"]
        widgets = {"email_on_turn": forms.RadioSelect}


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"), max_length=100, help_text=_("What will use it, e.g. “my bot”.")
    )
