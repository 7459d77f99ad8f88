from django.urls import path

from . import views

urlpatterns = [
    path("i18n/language/", views.language_switch, name="language_switch"),
    path("account/settings/", views.settings_edit, name="account_settings"),
    path("account/keep/", views.guest_claim_page, name="guest_claim"),
    path("account/tokens/", views.tokens, name="account_tokens"),
    path("account/tokens/<int:token_id>/revoke/", views.token_revoke, name="account_token_revoke"),
]
