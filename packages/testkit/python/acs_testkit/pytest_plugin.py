"""pytest plugin: an `acs_world` fixture, a fresh world per test, whose transcript is
printed when the test fails.

    python3 -m pytest -p acs_testkit.pytest_plugin    (or `pytest_plugins = ["acs_testkit.pytest_plugin"]`)

    @pytest.mark.asyncio
    async def test_roll(acs_world):
        r = await acs_world.user("alice").slash("/roll sides:6")
        assert r.ok, r.error

By default the world has users `alice` and `bob` and a channel `general`; a test changes
that with `@pytest.mark.acs_world(users=[...], channels=[...], guild_name=..., app_name=...)`
(on a test, a class or a module's `pytestmark`), or by overriding the `acs_world_spec`
fixture. `acs` is the connection (session-wide settings: `connect_acs()`'s environment).
Needs pytest-asyncio; a coroutine test that uses `acs_world` without an asyncio mark gets one.
"""

from __future__ import annotations

import inspect

import pytest
import pytest_asyncio

from .world import connect_acs

DEFAULT_SPEC = {"users": ["alice", "bob"], "channels": ["general"]}


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "acs_world(users=[...], channels=[...], guild_name=None, app_name=None): what the acs_world fixture builds",
    )


def pytest_collection_modifyitems(items) -> None:
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        function = getattr(item, "obj", None)
        if "acs_world" in fixtures and inspect.iscoroutinefunction(function) and item.get_closest_marker("asyncio") is None:
            item.add_marker(pytest.mark.asyncio)


@pytest.fixture
def acs_world_spec(request: pytest.FixtureRequest) -> dict:
    """What `acs_world` builds: `create_world`'s keyword arguments (the `acs_world` mark's, else alice, bob and #general)."""
    marker = request.node.get_closest_marker("acs_world")
    spec = dict(DEFAULT_SPEC)
    if marker is not None:
        spec.update(marker.kwargs)
    return spec


@pytest_asyncio.fixture
async def acs():
    """The running ACS (connect_acs(): ACS_URL and ACS_ADMIN_TOKEN, else the running npm start's)."""
    connection = await connect_acs()
    try:
        yield connection
    finally:
        await connection.close()


@pytest_asyncio.fixture
async def acs_world(request: pytest.FixtureRequest, acs, acs_world_spec):
    """A fresh world for this test, destroyed after it; its transcript is printed when the test fails."""
    world = await acs.create_world(**acs_world_spec)
    request.node._acs_world = world
    try:
        yield world
    finally:
        await world.destroy()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    outcome = yield
    report = outcome.get_result()
    world = getattr(item, "_acs_world", None)
    if world is None or not report.failed:
        return
    try:
        text = world.transcript()
    except Exception as error:  # the transcript must never hide the test's own failure
        text = f"(no transcript: {error})"
    indented = "\n".join(f"  {line}" for line in text.splitlines())
    report.sections.append(("acs-testkit transcript", f"What happened in the world (acs-testkit transcript):\n{indented}\n"))
