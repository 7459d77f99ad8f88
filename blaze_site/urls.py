from allauth.account.decorators import secure_admin_login
from django.contrib import admin
from django.urls import include, path
from django.views.i18n import JavaScriptCatalog

from games import views as game_views

from .api import api

# Staff sign in through the site's login: its rate limits and two-factor step apply.
admin.site.login = secure_admin_login(admin.site.login)

# allauth's rate limits (login, sign-up, password reset) answer through this.
handler429 = "blaze_site.errors.handler429"

urlpatterns = [
    # first: every move is an API request, and Django tries the patterns in order
    path("api/v1/", api.urls),
    path("", game_views.home, name="home"),
    path("", include("games.urls")),  # play, my_games, the table pages
    path("tournaments/", include("tournaments.urls")),
    path("admin/", admin.site.urls),
    # gettext()/ngettext() for static/js, in the page's language (no inline script: CSP)
    path("jsi18n/", JavaScriptCatalog.as_view(), name="javascript-catalog"),
    path("", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("", include("clocks.urls")),  # vacations
    path("", include("notifications.urls")),
    path("", include("social.urls")),  # /friends/, /staff/reports/
    path("", include("ops.urls")),  # /healthz, /staff/status/
    path("account/", include("allauth.urls")),
]
