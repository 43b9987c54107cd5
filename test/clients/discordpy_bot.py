"""A discord.py bot pointed at ACS, for test/discordpy-client.e2e.test.ts.

It logs in, connects to the gateway, syncs its application commands (global and one
guild's) with discord.py's own CommandTree, reads them back, provokes a validation
error, then prints the line `waiting-for-join` and waits for the test to install it in
a new guild (on_guild_join), and prints one JSON object with what it saw. Configured by
the environment: ACS_API (http://host:port), ACS_GATEWAY (ws://host:port/), BOT_TOKEN,
GUILD_ID.
"""

import asyncio
import json
import os
import sys

import discord
import yarl
from discord import app_commands

API = os.environ["ACS_API"]
GUILD = discord.Object(id=int(os.environ["GUILD_ID"]))

# discord.py has no base-URL option: both are class attributes (see real-clients.md).
discord.http.Route.BASE = f"{API}/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["ACS_GATEWAY"])

client = discord.Client(intents=discord.Intents.default())
tree = app_commands.CommandTree(client)
report: dict = {"available": [], "joined": []}
joined = asyncio.Event()


@tree.command(name="echo", description="Repeats what you say")
@app_commands.describe(text="What to repeat", times="How many times")
@app_commands.rename(text="text")
async def echo(interaction: discord.Interaction, text: str, times: app_commands.Range[int, 1, 5] = 1) -> None:
    await interaction.response.send_message(text * times)


@tree.context_menu(name="Inspect User")
async def inspect_user(interaction: discord.Interaction, user: discord.User) -> None:
    await interaction.response.send_message(user.name)


group = app_commands.Group(name="settings", description="Server settings", guild_only=True)


@group.command(name="show", description="Shows the settings")
@app_commands.choices(section=[app_commands.Choice(name="General", value="general"), app_commands.Choice(name="Roles", value="roles")])
async def show(interaction: discord.Interaction, section: app_commands.Choice[str]) -> None:
    await interaction.response.send_message(section.value)


tree.add_command(group, guild=GUILD)


@client.event
async def on_guild_available(guild: discord.Guild) -> None:
    report["available"].append(str(guild.id))


@client.event
async def on_guild_join(guild: discord.Guild) -> None:
    report["joined"].append(str(guild.id))
    joined.set()


@client.event
async def on_ready() -> None:
    try:
        report["user"] = {"id": str(client.user.id), "bot": client.user.bot}
        report["application_id"] = str(client.application_id)
        report["guilds"] = [str(g.id) for g in client.guilds]

        synced = await tree.sync()
        report["synced_global"] = sorted((c.name, int(c.type.value)) for c in synced)
        synced_guild = await tree.sync(guild=GUILD)
        report["synced_guild"] = [
            {"name": c.name, "options": [o.name for o in c.options], "guild_id": str(c.guild_id)} for c in synced_guild
        ]
        fetched = await tree.fetch_commands()
        report["fetched_global"] = sorted(c.name for c in fetched)
        echo_command = next(c for c in fetched if c.name == "echo")
        report["echo_options"] = [
            {"name": o.name, "required": o.required, "min": o.min_value, "max": o.max_value} for o in echo_command.options
        ]
        report["echo_mention"] = echo_command.mention
        fetched_one = await tree.fetch_command(echo_command.id)
        report["fetched_one"] = fetched_one.name

        info = await client.application_info()
        report["application_info"] = {"id": str(info.id), "name": info.name, "verify_key": info.verify_key}

        try:
            await client.http.upsert_global_command(client.application_id, {"name": "Bad Name", "description": "x", "type": 1})
            report["bad_command"] = "accepted"
        except discord.HTTPException as error:
            report["bad_command"] = {"status": error.status, "code": error.code, "text": error.text}

        await echo_command.delete()
        report["after_delete"] = sorted(c.name for c in await tree.fetch_commands())

        # The test installs the bot in a new guild now; discord.py must call it a join.
        print("waiting-for-join", flush=True)
        try:
            await asyncio.wait_for(joined.wait(), timeout=30)
        except asyncio.TimeoutError:
            report["join_timeout"] = True
    except Exception as error:  # reported, so the test shows what went wrong
        report["error"] = f"{type(error).__name__}: {error}"
    finally:
        await client.close()


async def main() -> None:
    try:
        await asyncio.wait_for(client.start(os.environ["BOT_TOKEN"]), timeout=60)
    except Exception as error:
        report["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
