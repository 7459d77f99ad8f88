"""daphne's HTTP requests without Twisted's form parsing.

Twisted parses every POST body that says it is a form into `request.args`, and reads
every POST's Content-Type with the standard library's email parser to decide (a ~tenth
of a web process's event-loop CPU under load: docs/live-play.md). daphne never
reads `args`: it hands the raw body to Django, which parses forms itself. Twisted's
opt-out (twisted/twisted#12413) is a constructor argument daphne does not pass, so the
request class daphne builds its requests from is swapped for one that passes it.
"""

from daphne import http_protocol

_DaphneRequest = http_protocol.WebRequest


class FormlessWebRequest(_DaphneRequest):
    def __init__(self, *args, **kwargs):
        kwargs["parsePOSTFormSubmission"] = False
        super().__init__(*args, **kwargs)


def install() -> None:
    """Before daphne serves (it looks the class up for each connection)."""
    http_protocol.WebRequest = FormlessWebRequest
