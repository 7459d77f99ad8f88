from django.urls import path

from . import views

urlpatterns = [
    path("u/<str:username>/", views.profile, name="profile"),
    path("leaderboard/", views.leaderboard_page, name="leaderboard"),
]
