from django.urls import path

from . import views

urlpatterns = [
    path("friends/", views.friends, name="friends"),
    path("friends/follow/", views.follow, name="friends_follow"),
    path("friends/unfollow/", views.unfollow, name="friends_unfollow"),
    path("friends/block/", views.block, name="friends_block"),
    path("friends/unblock/", views.unblock, name="friends_unblock"),
    path("friends/free-text/", views.free_text, name="talk_free_text"),
    path("friends/invite/", views.invite, name="friends_invite"),
    path("friends/invitations/<int:challenge_id>/", views.answer, name="invitation_answer"),
    path("staff/reports/", views.staff_reports, name="staff_reports"),
]
