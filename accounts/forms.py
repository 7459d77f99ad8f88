import zoneinfo

from django import forms

from .models import User


def _timezone_choices():
    return [(name, name.replace("_", " ")) for name in sorted(zoneinfo.available_timezones())]


class SettingsForm(forms.ModelForm):
    timezone = forms.ChoiceField(label="Time zone", choices=_timezone_choices)

    class Meta:
        model = User
        fields = ["email_on_turn", "timezone"]
        widgets = {"email_on_turn": forms.RadioSelect}


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label="Token name", max_length=100, help_text="What will use it, e.g. “my bot”."
    )
