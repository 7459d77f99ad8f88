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

    def save(self, commit=True):
        if {"email_on_turn", "timezone"} & set(self.changed_data):
            self.instance.digest_next = None  # the digest job looks at them at its next run
        return super().save(commit)


class TokenCreateForm(forms.Form):
    name = forms.CharField(
        label=_("Token name"), max_length=100, help_text=_("What will use it, e.g. “my bot”.")
    )


class GuestClaimForm(forms.Form):
    """Sign up by keeping the guest account (and its games): checked like allauth's sign-up."""

    username = forms.CharField(label=_("Username"), max_length=150)
    email = forms.EmailField(label=_("Email"))
    password1 = forms.CharField(label=_("Password"), widget=forms.PasswordInput)
    password2 = forms.CharField(label=_("Password (again)"), widget=forms.PasswordInput)

    def __init__(self, *args, user=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_username(self):
        from allauth.account.adapter import get_adapter

        return get_adapter().clean_username(self.cleaned_data["username"])

    def clean_email(self):
        from allauth.account.adapter import get_adapter

        email = get_adapter().clean_email(self.cleaned_data["email"])
        if User.objects.filter(email__iexact=email).exists():
            raise forms.ValidationError(_("A user is already registered with this email."))
        return email

    def clean(self):
        from allauth.account.adapter import get_adapter

        data = super().clean()
        p1, p2 = data.get("password1"), data.get("password2")
        if p1 and p2 and p1 != p2:
            self.add_error("password2", _("You must type the same password each time."))
        elif p1:
            try:
                get_adapter().clean_password(p1, user=self.user)
            except forms.ValidationError as e:
                self.add_error("password1", e)
        return data
