from django.urls import path

from . import views

urlpatterns = [
    path("play/", views.lobby, name="play"),
    path("play/new/", views.game_create, name="game_create"),
    path("play/bots/", views.play_bots, name="play_bots"),
    path("play/people/", views.play_people, name="play_people"),
    path("games/", views.my_games, name="my_games"),
    path("games/import/", views.record_import, name="record_import"),
    path("games/next/", views.game_next, name="game_next"),
    path("games/<int:game_id>/", views.game_table, name="game_table"),
    path("games/<int:game_id>/join/", views.game_join, name="game_join"),
    path("games/<int:game_id>/invite/", views.game_invite_open, name="game_invite_open"),
    path("games/<int:game_id>/leave/", views.game_leave, name="game_leave"),
    path("games/<int:game_id>/bots/", views.game_add_bot, name="game_add_bot"),
    path("games/<int:game_id>/replay/", views.game_replay, name="game_replay"),
    path("games/<int:game_id>/again/", views.game_again, name="game_again"),
    path("games/<int:game_id>/replay/data/", views.game_replay_data, name="game_replay_data"),
    path("games/<int:game_id>/log/", views.game_log_data, name="game_log_data"),
    path("rules/", views.rules, name="rules"),
]
