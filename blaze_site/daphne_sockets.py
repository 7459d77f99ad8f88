"""A message for a socket that the server is closing is dropped, not raised.

uvicorn raises `ClientDisconnected` (an OSError, as the ASGI spec asks) on such a send.
daphne marks a socket gone only once its TCP connection is lost. From a close frame
(the client's, or the server's own while it waits for the answer) until then, autobahn
refuses to send ("Attempt to send on a closed protocol"), and a view broadcast to that
socket in the meantime killed its consumer with a traceback. Nothing can reach that
client any more; the disconnect follows and ends the consumer as usual."""

from autobahn.exception import Disconnected


class DropSendsWhileClosing:
    def __init__(self, application):
        self.application = application

    async def __call__(self, scope, receive, send):
        async def send_unless_closing(message):
            try:
                await send(message)
            except (Disconnected, OSError):  # daphne's own; the ASGI spec's (uvicorn's)
                pass

        return await self.application(scope, receive, send_unless_closing)
