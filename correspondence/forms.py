from django import forms


class VacationForm(forms.Form):
    first_day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))
    last_day = forms.DateField(widget=forms.DateInput(attrs={"type": "date"}))

    def clean(self):
        data = super().clean()
        first, last = data.get("first_day"), data.get("last_day")
        if first and last and last < first:
            raise forms.ValidationError("The last day cannot come before the first day.")
        return data
