"""What a client reads when the site refuses its socket."""


async def close_code(ws) -> int | None:
    """The close code of a socket the site refuses (a channels WebsocketCommunicator): the
    socket is accepted, then closed with the code. A close before the accept would reach
    a real client as a bare HTTP 403, with no code to tell it whether to try again."""
    connected, _ = await ws.connect()
    assert connected, "refused before the handshake: a real client reads no close code"
    closed = await ws.receive_output(timeout=5)
    assert closed["type"] == "websocket.close", closed
    return closed.get("code")
