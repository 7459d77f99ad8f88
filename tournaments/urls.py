from django.urls import path

from . import views

urlpatterns = [
    path("", views.tournament_list, name="tournaments"),
    path("new/", views.tournament_new, name="tournament_new"),
    path("<int:tournament_id>/", views.tournament_detail, name="tournament_detail"),
    path("<int:tournament_id>/register/", views.tournament_register, name="tournament_register"),
    path("<int:tournament_id>/withdraw/", views.tournament_withdraw, name="tournament_withdraw"),
    path("<int:tournament_id>/start/", views.tournament_start, name="tournament_start"),
]
