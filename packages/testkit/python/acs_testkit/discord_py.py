"""Points discord.py at ACS: it has no base-URL option, both URLs are class attributes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .world import Acs


async def point_discord_py(acs: "Acs") -> None:
    """Makes every discord.py client of this process talk to `acs`: its REST calls go to
    `<acs.url>/api/v10` and its gateway connects to the URL ACS's `GET /gateway` answers.
    Call it before `client.start(world.app.bot_token)`."""
    import discord  # imported here: the kit itself does not need discord.py
    import yarl

    discord.http.Route.BASE = f"{acs.url}/api/v10"
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(await acs.gateway_url())
