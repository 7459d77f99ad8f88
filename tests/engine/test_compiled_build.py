"""The optional compiled build (`make compiled`, scripts/build_compiled.py): the .py files stay
the reference. Without a build (no compiler, a fresh clone) only the first and last tests
run; with one, the conformance suites also run on the plain-Python modules and both give
the same games and searches."""

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import games.engine.state

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "scripts"))
from build_compiled import MODULES  # noqa: E402

sys.path.pop(0)

COMPILED = not games.engine.state.__file__.endswith(".py")
needs_build = pytest.mark.skipif(not COMPILED, reason="no compiled build (make compiled)")
PURE = {**os.environ, "BLAZE_PURE_PYTHON": "1"}
# the suites that hold the engine to RULES.md and RECORD.md, and the fast engine and
# policy to the reference
CONFORMANCE = ["tests/engine/test_examples.py", "tests/engine/test_records.py",
               "tests/engine/test_scenarios.py", "tests/engine/test_properties.py",
               "tests/engine/test_fast_conformance.py", "tests/bots/test_fast_policy.py",
               "tests/bots/test_determinization.py"]


def _python(code: str, env=None) -> str:
    return subprocess.run([sys.executable, "-c", code], env=env, cwd=ROOT, check=True,
                          capture_output=True, text=True).stdout


def test_pure_python_mode_imports_every_engine_and_bot_module_from_its_source():
    code = (f"import importlib\nfor m in {MODULES!r}:\n"
            "    print(importlib.import_module(m).__file__)\n")
    files = _python(code, PURE).split()
    assert len(files) == len(MODULES) and all(f.endswith(".py") for f in files)


@needs_build
def test_a_build_whose_source_changed_is_not_loaded():
    # a checksum that matches no source stands for an edit made after the build
    code = ("import zlib\nzlib.crc32 = lambda data: -1\n"
            "import games.engine.state as s, games.bots.ismcts as i\nprint(s.__file__, i.__file__)")
    assert all(f.endswith(".py") for f in _python(code).split())


@needs_build
def test_conformance_suites_pass_on_the_plain_python_modules_too():
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", *CONFORMANCE],
                            env=PURE, cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout[-3000:]


@needs_build
def test_compiled_and_plain_python_play_the_same_games_and_searches():
    code = ("import json\nfrom games.bots.arena import run\n"
            "r = run(4, 4, 'strong', 'basic', iterations=40, seed=5)\n"
            "print(json.dumps({k: r[k] for k in ('iterations', 'ranked', 'win_rate', "
            "'mean_rank', 'mean_score')}))\n"
            "import random\nfrom games.engine import export_record, new_game, random_move, "
            "replay_line\nrng = random.Random(2)\n"
            "for _ in range(20):\n"
            "    s, k = new_game(5, rng), 0\n"
            "    while not s.finished and k < 3000:\n"
            "        s.apply(random_move(s, rng))\n"
            "        k += 1\n"
            "    print(json.dumps(replay_line(json.dumps(export_record(s, list('abcde'))))))\n")
    compiled, pure = _python(code), _python(code, PURE)
    assert compiled == pure
    assert json.loads(compiled.splitlines()[0])["iterations"] > 0


def test_state_pxd_declares_every_slot_of_state():
    # compiled, State is an extension type: an undeclared attribute could not be set
    from games.engine.state import State

    declared = set()
    for line in (ROOT / "games/engine/state.pxd").read_text().splitlines():
        if line.startswith("    cdef public "):
            declared.update(n.strip() for n in line.split(None, 3)[3].split(","))
    assert declared == set(State.__slots__)
