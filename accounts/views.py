from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST

from .forms import SettingsForm, TokenCreateForm
from .services import api_token_create, api_token_revoke


@login_required
def settings_edit(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, "Your settings are saved.")
        return redirect("account_settings")
    return render(request, "accounts/settings.html", {"form": form})


@login_required
def tokens(request):
    form = TokenCreateForm(request.POST or None)
    new_secret = None
    if request.method == "POST" and form.is_valid():
        _, new_secret = api_token_create(user=request.user, name=form.cleaned_data["name"])
        form = TokenCreateForm()
    context = {
        "form": form,
        "new_secret": new_secret,
        "tokens": request.user.api_tokens.all(),
    }
    return render(request, "accounts/tokens.html", context)


@login_required
@require_POST
def token_revoke(request, token_id: int):
    if api_token_revoke(user=request.user, token_id=token_id):
        messages.success(request, "The token is revoked: programs using it are locked out.")
    return redirect("account_tokens")
