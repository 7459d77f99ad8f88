from django.conf import settings
from django.contrib import messages
from django.contrib.auth import update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST
from django.views.i18n import set_language

from .forms import GuestClaimForm, SettingsForm, TokenCreateForm
from .middleware import accept_language
from .services import (
    UsernameTaken,
    api_token_create,
    api_token_revoke,
    guest_claim,
    user_language_set,
)


@login_required
def settings_edit(request):
    form = SettingsForm(request.POST or None, instance=request.user)
    if request.method == "POST" and form.is_valid():
        user = form.save()
        translation.activate(user.language or accept_language(request))
        messages.success(request, _("Your settings are saved."))
        response = redirect("account_settings")
        # the switch's cookie follows the setting, so logging out keeps the language
        if user.language:
            response.set_cookie(settings.LANGUAGE_COOKIE_NAME, user.language,
                                max_age=settings.LANGUAGE_COOKIE_AGE, samesite="Lax")
        else:
            response.delete_cookie(settings.LANGUAGE_COOKIE_NAME)
        return response
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
        messages.success(request, _("The token is revoked: programs using it are locked out."))
    else:  # not theirs, not there, or revoked already
        messages.error(request, _("No token of yours to revoke there."))
    return redirect("account_tokens")



@require_POST
def language_switch(request):
    """The language switch in every page's footer, for guests too (Django's set_language:
    a cookie, then back to the page); a signed-in player's setting follows the choice."""
    response = set_language(request)
    language = request.POST.get("language", "")
    if request.user.is_authenticated and language in dict(settings.LANGUAGES):
        user_language_set(user=request.user, language=language)
    return response


@login_required
def guest_claim_page(request):
    """A guest signs up by naming the account it already has: its games stay its own."""
    if not request.user.is_guest:
        return redirect("profile", username=request.user.username)
    form = GuestClaimForm(request.POST or None, user=request.user)
    if request.method == "POST" and form.is_valid():
        from allauth.account.models import EmailAddress

        try:
            user = guest_claim(user=request.user, username=form.cleaned_data["username"],
                               email=form.cleaned_data["email"],
                               password=form.cleaned_data["password1"])
        except UsernameTaken:
            form.add_error("username", _("Someone has just taken this name: choose another."))
            return render(request, "accounts/guest_claim.html", {"form": form})
        update_session_auth_hash(request, user)
        EmailAddress.objects.add_email(request, user, user.email, confirm=True)
        messages.success(request, _("Welcome, %(name)s: your games are yours. Check your mail "
                                    "to confirm your address.") % {"name": user.username})
        return redirect("profile", username=user.username)
    return render(request, "accounts/guest_claim.html", {"form": form})
