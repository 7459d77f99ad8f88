from django import forms
from django.utils.translation import gettext_lazy as _


class VacationForm(forms.Form):
    first_day = forms.DateField(label=_("First day"),
                                widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(label=_("Last day"), widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            raise forms.ValidationError(_("The last day cannot come before the first day."))
        return data
