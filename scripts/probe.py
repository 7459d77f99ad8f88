"""Tell whether a TCP service answers: ``python scripts/probe.py HOST PORT`` exits 0 if it does."""

import socket
import sys


def answers(host: str, port: int, timeout: float = 1.0) -> bool:
    try:
        with socket.create_connection((host, port), timeout=timeout):
            return True
    except OSError:
        return False


if __name__ == "__main__":
    sys.exit(0 if answers(sys.argv[1], int(sys.argv[2])) else 1)
