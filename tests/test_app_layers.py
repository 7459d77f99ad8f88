"""The apps stack in layers: accounts at the bottom, games on it, everything else above.

Every import counts, also those inside functions; the graph is read from the sources.
"""

import ast
from pathlib import Path

from django.conf import settings

ROOT = Path(__file__).resolve().parents[1]
# The project's own apps: those of INSTALLED_APPS that live in this repository.
APPS = tuple(app for app in settings.INSTALLED_APPS if (ROOT / app / "apps.py").exists())
# What each app may import (besides itself). Above games, apps react to it through
# games.events; none of them imports another app of its own layer. ops (the staff
# status page) reads every layer and nothing imports it.
MAY_IMPORT = {
    "accounts": set(),
    "games": {"accounts"},
    "ratings": {"accounts", "games"},
    "clocks": {"accounts", "games"},
    "notifications": {"accounts", "games"},
    "tournaments": {"accounts", "games"},
    "social": {"accounts", "games"},
    "ops": {"accounts", "games", "ratings", "clocks", "notifications", "tournaments"},
}


def _imported_modules(tree: ast.AST):
    for node in ast.walk(tree):  # walks function bodies too
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.module
            for alias in node.names:  # `from games import services`
                yield f"{node.module}.{alias.name}"


def app_imports() -> dict[str, dict[str, list[str]]]:
    """app -> imported app -> the files that import it."""
    graph: dict[str, dict[str, list[str]]] = {app: {} for app in APPS}
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            tree = ast.parse(path.read_text(), filename=str(path))
            for module in _imported_modules(tree):
                other = module.split(".")[0]
                if other in APPS and other != app:
                    where = str(path.relative_to(ROOT))
                    files = graph[app].setdefault(other, [])
                    if where not in files:
                        files.append(where)
    return graph


def cycles(graph: dict[str, dict]) -> list[list[str]]:
    """Every cycle found by a depth-first search, as a list of apps."""
    found, path, done = [], [], set()

    def visit(app):
        if app in path:
            found.append(path[path.index(app):] + [app])
            return
        if app in done:
            return
        path.append(app)
        for other in sorted(graph[app]):
            visit(other)
        path.pop()
        done.add(app)

    for app in sorted(graph):
        visit(app)
    return found


def test_the_checker_sees_imports_inside_functions_and_finds_a_circle():
    tree = ast.parse("def f():\n    from ratings.tasks import x\n    import games.models\n")
    assert {"ratings.tasks", "games.models"} <= set(_imported_modules(tree))
    assert cycles({"a": {"b": []}, "b": {"c": []}, "c": {"a": []}}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b": []}, "b": {}}) == []


def test_no_two_apps_import_each_other_directly_or_around_a_circle():
    assert cycles(app_imports()) == []


def test_every_app_of_the_project_has_its_place_in_the_layers():
    assert {"accounts", "games"} <= set(APPS)
    assert set(APPS) == set(MAY_IMPORT), "put a new app in MAY_IMPORT, above what it imports"


def test_each_app_imports_only_the_layers_below_it():
    graph = app_imports()
    wrong = {app: {other: files for other, files in imported.items()
                   if other not in MAY_IMPORT[app]}
             for app, imported in graph.items()}
    assert {app: found for app, found in wrong.items() if found} == {}


def _modules_imported_by(folder: str) -> dict[str, set[str]]:
    """file -> the project's top-level packages it imports (apps, lib, blaze_site)."""
    own = set(APPS) | {"lib", "blaze_site"}
    found: dict[str, set[str]] = {}
    for path in sorted((ROOT / folder).rglob("*.py")):
        tree = ast.parse(path.read_text(), filename=str(path))
        tops = {m.split(".")[0] for m in _imported_modules(tree)} & own
        if tops:
            found[str(path.relative_to(ROOT))] = tops
    return found


def test_lib_lies_below_every_app_and_imports_none():
    upward = {path: tops - {"lib"} for path, tops in _modules_imported_by("lib").items()
              if tops - {"lib"}}
    assert upward == {}


def test_no_app_imports_the_project_package_for_helpers():
    # blaze_site wires the apps together; what apps share lives in lib/, below them all
    leaning = {path: tops for app in APPS
               for path, tops in _modules_imported_by(app).items() if "blaze_site" in tops}
    assert leaning == {}
