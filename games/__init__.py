"""Blaze's game app. The rules engine (games/engine) and bots (games/bots) are plain Python;
`make compiled` may build some of their modules as C extensions next to their sources
(docs/engine.md, "Compiled build"). Such a build is used only while the source it was
built from is unchanged (games/_compiled.json keeps a checksum of each), and never with
BLAZE_PURE_PYTHON=1: the .py files are the reference (a .pxd beside one only adds static
types for the build)."""

import os as _os


def _use_sources_over_stale_builds() -> None:
    import json
    import sys
    import zlib
    from importlib.util import spec_from_file_location

    here = _os.path.dirname(__file__)
    pure = bool(_os.environ.get("BLAZE_PURE_PYTHON"))
    try:
        with open(_os.path.join(here, "_compiled.json")) as f:
            built = json.load(f)
    except (OSError, ValueError):
        built = {}
    if not built and not pure:
        return

    class ReferenceFinder:
        """Imports games.* modules from their .py file unless a current build exists."""

        @staticmethod
        def find_spec(name, path=None, target=None):
            if not path or not name.startswith("games.") or not (pure or name in built):
                return None
            source = _os.path.join(path[0], name.rpartition(".")[2] + ".py")
            try:
                with open(source, "rb") as f:
                    data = f.read()
            except OSError:
                return None
            try:  # a .pxd (static types for the build) counts as source too
                with open(source[:-3] + ".pxd", "rb") as f:
                    data += f.read()
            except OSError:
                pass
            current = zlib.crc32(data) == built.get(name)
            if current and not pure:
                return None  # the usual finders pick the extension module
            return spec_from_file_location(name, source)

    sys.meta_path.insert(0, ReferenceFinder)


_use_sources_over_stale_builds()
