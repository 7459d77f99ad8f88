"""The options a Blaze web process runs uvicorn with, from scripts/uvicorn.args (one list for
`make run`, scripts/serve_many.sh and the tests)."""

from pathlib import Path

ARGS_FILE = Path(__file__).resolve().parents[1] / "scripts" / "uvicorn.args"


def uvicorn_options() -> list[str]:
    lines = ARGS_FILE.read_text().splitlines()
    return [word for line in lines if not line.startswith("#") for word in line.split()]
