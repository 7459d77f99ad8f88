from django.contrib import admin
from django.urls import include, path

from games import views as game_views

from .api import api

urlpatterns = [
    path("", game_views.home, name="home"),
    path("", include("games.urls")),  # play, my_games, the table pages
    path("tournaments/", include("tournaments.urls")),
    path("api/v1/", api.urls),
    path("admin/", admin.site.urls),
    path("", include("accounts.urls")),
    path("", include("ratings.urls")),
    path("", include("correspondence.urls")),
    path("account/", include("allauth.urls")),
]
