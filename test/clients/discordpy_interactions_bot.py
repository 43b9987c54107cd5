"""A discord.py bot whose app_commands callbacks ACS invokes, for test/discordpy-interactions.e2e.test.ts.

It syncs its CommandTree to one guild, prints `ready <json of the synced commands>`, and
answers each invocation in its command callback with discord.py's own
`interaction.response` API. After `EXPECTED` callbacks have run it prints one JSON report
of what the callbacks saw and exits. Configured by the environment: ACS_API, ACS_GATEWAY,
BOT_TOKEN, GUILD_ID.
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
EXPECTED = 3

discord.http.Route.BASE = f"{API}/api/v10"
discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(os.environ["ACS_GATEWAY"])

client = discord.Client(intents=discord.Intents.default())
tree = app_commands.CommandTree(client)
report: dict = {"calls": []}
done = asyncio.Event()


def record(interaction: discord.Interaction, **seen) -> None:
    report["calls"].append(
        {
            "command": interaction.command.qualified_name if interaction.command else None,
            "user": str(interaction.user.id),
            "guild": str(interaction.guild_id),
            "channel": str(interaction.channel_id),
            "locale": str(interaction.locale),
            **seen,
        }
    )
    if len(report["calls"]) >= EXPECTED:
        done.set()


@tree.command(name="repeat", description="Repeats what you say", guild=GUILD)
@app_commands.describe(text="What to repeat", times="How many times")
async def repeat(interaction: discord.Interaction, text: str, times: app_commands.Range[int, 1, 5] = 1) -> None:
    await interaction.response.send_message(" ".join([text] * times))
    record(interaction, text=text, times=times)


@tree.command(name="later", description="Thinks first", guild=GUILD)
async def later(interaction: discord.Interaction) -> None:
    await interaction.response.defer(ephemeral=True, thinking=True)
    await interaction.followup.send("thought about it", ephemeral=True)
    record(interaction)


@tree.command(name="fruit", description="Picks a fruit", guild=GUILD)
async def fruit(interaction: discord.Interaction, name: str) -> None:
    await interaction.response.send_message(f"you picked {name}")
    record(interaction, name=name)


@fruit.autocomplete("name")
async def fruit_names(interaction: discord.Interaction, current: str) -> list:
    fruits = ["apple", "apricot", "banana"]
    return [app_commands.Choice(name=f, value=f) for f in fruits if f.startswith(current)]


@client.event
async def on_ready() -> None:
    try:
        synced = await tree.sync(guild=GUILD)
        print("ready " + json.dumps([{"id": str(c.id), "name": c.name} for c in synced]), flush=True)
        await asyncio.wait_for(done.wait(), timeout=60)
    except Exception as error:  # reported, so the test shows what went wrong
        report["error"] = f"{type(error).__name__}: {error}"
    finally:
        await client.close()


async def main() -> None:
    try:
        await asyncio.wait_for(client.start(os.environ["BOT_TOKEN"]), timeout=90)
    except Exception as error:
        report["error"] = f"{type(error).__name__}: {error}"
    print(json.dumps(report))


if __name__ == "__main__":
    asyncio.run(main())
    sys.exit(0)
