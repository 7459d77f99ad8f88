from django.shortcuts import render


def coming_soon(request, title: str):
    """A friendly placeholder for pages that later issues build."""
    return render(request, "pages/coming_soon.html", {"title": title})
