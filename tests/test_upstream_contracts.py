"""What we take from other projects: no monkey-patches, and each remaining lean on
behaviour they do not document held here or by the test docs/upgrades.md names."""

import ast
import inspect
import re
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
SKIP = {".venv", "node_modules", "staticfiles", "build", ".git", "migrations"}


def _own_packages() -> set[str]:
    return {p.name for p in ROOT.iterdir() if (p / "__init__.py").exists()} | {"scripts"}


def upstream_patches(source: str, own: set[str]) -> list[str]:
    """Assignments to attributes of imported third-party modules or their functions
    (`module.attr = …`, `setattr(module, …)`); classes imported by name may be subclassed."""
    tree = ast.parse(source)
    third = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] not in own:
                    third.add(alias.asname or alias.name.split(".")[0])
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] not in own:
                third |= {a.asname or a.name for a in node.names
                          if (a.asname or a.name)[:1].islower()}

    def base(target):
        while isinstance(target, ast.Attribute):
            target = target.value
        return target.id if isinstance(target, ast.Name) else None

    found = []
    for node in ast.walk(tree):
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AugAssign, ast.AnnAssign)) else []
        for target in targets:
            if isinstance(target, ast.Attribute) and base(target) in third \
                    and ast.unparse(target) != "admin.site.login":  # allauth's documented way
                found.append(f"{node.lineno}: {ast.unparse(target)}")
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) \
                and node.func.id == "setattr" and node.args and base(node.args[0]) in third:
            found.append(f"{node.lineno}: setattr({ast.unparse(node.args[0])}, …)")
    return found


def test_the_scanner_finds_an_assignment_to_a_third_party_module_attribute():
    own = {"games"}
    assert upstream_patches("from daphne import http_protocol\n"
                            "http_protocol.WebRequest = object\n", own) == [
        "2: http_protocol.WebRequest"]
    assert upstream_patches("from django.conf import settings\n"
                            "settings.MIDDLEWARE = []\n", own) == ["2: settings.MIDDLEWARE"]
    assert upstream_patches("import twisted.web\nsetattr(twisted.web, 'x', 1)\n", own) == [
        "2: setattr(twisted.web, …)"]
    # our own modules, and subclasses of imported classes, are ours to change
    assert upstream_patches("from games import x\nx.y = 1\n"
                            "from channels.consumer import AsyncConsumer\n"
                            "class C(AsyncConsumer):\n    pass\n", own) == []


def test_no_code_of_the_project_patches_another_projects_modules():
    own = _own_packages()
    found = {}
    for path in sorted(ROOT.rglob("*.py")):
        relative = path.relative_to(ROOT)
        if set(relative.parts) & SKIP or relative.parts[0] == "tests":
            continue
        patches = upstream_patches(path.read_text(encoding="utf-8"), own)
        if patches:
            found[str(relative)] = patches
    assert found == {}


def _pins() -> dict[str, str]:
    text = (ROOT / "pyproject.toml").read_text()
    return {name.lower(): version for name, version in
            re.findall(r'"([A-Za-z0-9_.\[\]-]+?)(?:\[[a-z,]+\])?==([^";]+)', text)}


@pytest.mark.parametrize("project", [
    "Django", "channels", "channels-redis", "daphne", "Twisted", "autobahn", "asgiref",
    "redis", "celery", "psycopg", "psycopg-pool", "uvicorn", "websockets"])
def test_the_projects_we_lean_on_are_installed_at_their_pinned_versions(project):
    # docs/upgrades.md lists what to read before changing one of these pins
    assert _pins()[project.lower()] == metadata.version(project)


def test_daphnes_handshake_limit_is_the_one_the_socket_reads_assume():
    from daphne.cli import CommandLineInterface
    from django.conf import settings

    args = CommandLineInterface().parser.parse_args(["blaze_site.asgi:application"])
    assert args.websocket_connect_timeout == settings.WS_HANDSHAKE_SECONDS


def test_the_list_layer_makes_its_connections_from_the_pool_we_give_it():
    import asyncio

    from channels_redis.core import RedisChannelLayer
    from redis.asyncio import BlockingConnectionPool

    from blaze_site.channel_layers import WaitingPoolRedisChannelLayer

    # blaze_site/channel_layers.py replaces the pool channels-redis makes for one host
    assert list(inspect.signature(RedisChannelLayer.create_pool).parameters) == [
        "self", "index"]
    layer = WaitingPoolRedisChannelLayer(hosts=["redis://127.0.0.1:1/0"])

    async def pool():
        return layer.connection(0).connection_pool  # made lazily: nothing connects yet

    assert isinstance(asyncio.run(pool()), BlockingConnectionPool)


def test_the_orm_pieces_the_hand_written_sql_uses_are_there():
    from django.db import connection

    from games.models import Move

    # lib/rows.py converts values as the ORM's compiler does
    field = Move._meta.get_field("payload")
    col = field.get_col(Move._meta.db_table)
    assert isinstance(connection.ops.get_db_converters(col), list)
    assert isinstance(col.get_db_converters(connection), list)
    assert callable(Move.from_db)


@pytest.mark.django_db
def test_the_cursor_pieces_the_server_bound_statements_use_are_there():
    from django.db import connection

    if connection.vendor != "postgresql":
        pytest.skip("lib/rows binds on the server on PostgreSQL only")
    import psycopg

    from lib import rows

    # lib/rows.py wraps psycopg's Cursor as Django's BaseDatabaseWrapper._cursor does
    for name in ("close_if_health_check_failed", "ensure_connection",
                 "validate_thread_sharing", "make_cursor"):
        assert callable(getattr(connection, name)), name
    assert isinstance(connection.queries_logged, bool)
    # its debug cursor logs the text as Django's own does for a server-bound cursor
    from django.db.backends.utils import CursorDebugWrapper
    assert callable(CursorDebugWrapper.debug_sql) and callable(connection.ops.compose_sql)
    with rows._cursor(connection) as cursor:
        assert type(cursor.cursor) is psycopg.Cursor  # Django's wrapper keeps it there
    # the time zone Django's create_cursor compares, where lib/rows reads it
    assert rows._loader_timezone(connection.connection) == connection.timezone
    assert connection.connection.prepare_threshold in (0, None)


def test_ready_views_and_client_frames_skip_channels_clean_up_others_keep_it(monkeypatch):
    import asyncio

    import channels.consumer

    from games.live import messages
    from games.live.consumers import GameConsumer

    hops, handled = [], []

    async def clean_up():
        hops.append(1)

    monkeypatch.setattr(channels.consumer, "aclose_old_connections", clean_up)
    consumer = GameConsumer()

    async def record(event):
        handled.append(event["type"])

    consumer.game_views = consumer.game_deliver = consumer.auth_revoked = record
    consumer.websocket_receive = record

    async def go():
        await consumer.dispatch({"type": messages.GAME_VIEWS})
        await consumer.dispatch({"type": messages.GAME_DELIVER})
        await consumer.dispatch({"type": "websocket.receive", "text": '{"type": "ping"}'})
        assert hops == []  # straight to the handlers: no thread hop
        await consumer.dispatch({"type": "auth.revoked"})  # channels' own dispatch
        assert hops == [1]

    asyncio.run(go())
    assert handled == [messages.GAME_VIEWS, messages.GAME_DELIVER, "websocket.receive",
                       "auth.revoked"]
