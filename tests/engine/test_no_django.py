import subprocess
import sys
from pathlib import Path

import games.engine

ENGINE = Path(games.engine.__file__).parent


def test_engine_sources_never_import_django():
    for path in ENGINE.glob("*.py"):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path


def test_engine_imports_and_plays_without_loading_django():
    code = ("import sys, random; from games.engine import new_game, random_move\n"
            "s = new_game(4, random.Random(3))\n"
            "for _ in range(50): s.apply(random_move(s, random.Random(1)))\n"
            "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules)\n")
    subprocess.run([sys.executable, "-c", code], check=True, cwd=ENGINE.parents[1])
