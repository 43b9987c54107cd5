"""acs-testkit for Python: end-to-end tests of a Discord bot against ACS.

    acs = await connect_acs()
    world = await acs.create_world(users=["alice", "bob"], channels=["general"])
    r = await world.user("alice").slash("/roll sides:6", channel="general")
    assert r.ok, r.error

The same model as the JavaScript kit (packages/testkit), in snake_case; only the standard
library and aiohttp (which discord.py brings). The pytest plugin is
`acs_testkit.pytest_plugin` (`acs_world` fixture).
"""

from .discord_py import point_discord_py
from .http import ApiAnswer, call_api, describe_error
from .locate import StackLocation, find_data_dir, locate_stack, stack_pointer_file
from .parse import parse_invocation, split_words
from .result import InteractionResult
from .world import Acs, AcsError, World, WorldApp, WorldChannel, WorldPlayer, WorldUser, connect_acs

__all__ = [
    "Acs",
    "AcsError",
    "ApiAnswer",
    "InteractionResult",
    "StackLocation",
    "World",
    "WorldApp",
    "WorldChannel",
    "WorldPlayer",
    "WorldUser",
    "call_api",
    "connect_acs",
    "describe_error",
    "find_data_dir",
    "locate_stack",
    "parse_invocation",
    "point_discord_py",
    "split_words",
    "stack_pointer_file",
]
