"""Staff sign in with two factors (allauth.mfa) before the admin opens."""


STAFF_PATHS = ("/admin/", "/staff/")  # the admin and the staff status page


class StaffTwoFactorMiddleware:
    """Staff reach /admin/ only with two-factor sign-in set up; until then the admin
    sends them to the page that sets up an authenticator app."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith(STAFF_PATHS) and request.user.is_authenticated \
                and request.user.is_staff and not _has_totp(request.user):
            from django.contrib import messages
            from django.shortcuts import redirect
            from django.utils.translation import gettext as _

            messages.info(request, _("Staff sign in with two factors: set up an "
                                     "authenticator app before you open the admin."))
            return redirect("mfa_activate_totp")
        return self.get_response(request)


def _has_totp(user) -> bool:
    from allauth.mfa.models import Authenticator

    return Authenticator.objects.filter(user=user, type=Authenticator.Type.TOTP).exists()
