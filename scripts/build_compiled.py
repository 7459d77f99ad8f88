"""`make compiled`: build the engine's and bots' hot modules as C extensions (Cython).

Optional: the .py files stay the reference and the only thing a checkout needs; the
extensions are built next to them (games/engine/state.cpython-311-….so), with a manifest
(games/_compiled.json) of the sources they were built from (a module's .pxd, if any, adds
static types for Cython and counts as source). games/__init__.py loads an
extension only while its source is unchanged, and never with BLAZE_PURE_PYTHON=1.
Needs Cython (pyproject's `compiled` extra, pinned) and a C compiler; without them this
says so and exits 1, and everything runs as plain Python. `--clean` removes the build.
"""

import json
import sys
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MANIFEST = ROOT / "games" / "_compiled.json"
#: the modules on the bots' and replay's hot paths; their sources are plain Python
MODULES = [
    "games.engine.cards", "games.engine.state", "games.engine.record", "games.engine.legal",
    "games.engine.fast", "games.engine.position", "games.engine.view",
    "games.bots.basic", "games.bots.fastbasic", "games.bots.determinize",
    "games.bots.ismcts", "games.bots.rollout", "games.bots.plan",
]


def source(module: str) -> Path:
    return ROOT / (module.replace(".", "/") + ".py")


def checksum(path: Path) -> int:
    """Of the module's source and its .pxd (static types, compiled build only) if it has one."""
    pxd = path.with_suffix(".pxd")
    return zlib.crc32(path.read_bytes() + (pxd.read_bytes() if pxd.exists() else b""))


def clean() -> None:
    MANIFEST.unlink(missing_ok=True)
    for module in MODULES:
        for built in source(module).parent.glob(module.rpartition(".")[2] + ".*.so"):
            built.unlink()


def build() -> None:
    try:
        from Cython.Build import cythonize
        from setuptools import Distribution, Extension
    except ImportError as e:
        sys.exit(f"no compiled build ({e}): pip install -e '.[compiled]' first; "
                 "the site runs as plain Python without it")
    clean()  # a failed build leaves nothing half-made behind
    extensions = cythonize(
        [Extension(m, [str(source(m).relative_to(ROOT))]) for m in MODULES],
        build_dir="build/cython", quiet=True, nthreads=2,
        compiler_directives={"language_level": 3})
    dist = Distribution({"ext_modules": extensions, "script_name": "build_compiled.py"})
    command = dist.get_command_obj("build_ext")
    command.inplace = True
    command.build_temp = "build/temp"
    command.parallel = 2
    try:
        dist.run_command("build_ext")
    except Exception as e:  # no compiler, or one that fails: stay on plain Python
        clean()
        sys.exit(f"no compiled build: {e}")
    MANIFEST.write_text(json.dumps({m: checksum(source(m)) for m in MODULES}, indent=1) + "\n")
    print(f"built {len(MODULES)} modules; BLAZE_PURE_PYTHON=1 runs without them")


if __name__ == "__main__":
    import os

    os.chdir(ROOT)
    clean() if sys.argv[1:] == ["--clean"] else build()
