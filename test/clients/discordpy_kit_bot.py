"""A discord.py bot for test/testkit-python.e2e.test.ts: the Python kit's tests start it
in their own event loop with their world's bot token (see test_discordpy_kit.py).

/roll answers with a button that edits the message, /fruit completes its option, /feedback
opens a modal whose submit gets an ephemeral thank-you, /slow defers, fills its reply in
and posts a follow-up, and a `!ping` message gets `pong`.
"""

import asyncio
import random

import discord
from discord import app_commands


class RollAgain(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)

    @discord.ui.button(label="Roll again", custom_id="again")
    async def again(self, interaction: discord.Interaction, button: discord.ui.Button) -> None:
        await interaction.response.edit_message(content=f"rolled again: {random.randint(1, 6)}", view=self)


class Feedback(discord.ui.Modal, title="Feedback"):
    feedback = discord.ui.TextInput(label="Your feedback", custom_id="feedback")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"thanks for: {self.feedback.value}", ephemeral=True)


def make_bot(guild_id: int) -> discord.Client:
    """A client whose `synced` event is set once its commands are synced to the guild."""
    intents = discord.Intents.default()
    intents.message_content = True
    client = discord.Client(intents=intents)
    tree = app_commands.CommandTree(client)
    guild = discord.Object(id=guild_id)
    client.synced = asyncio.Event()

    @tree.command(name="roll", description="Rolls a die", guild=guild)
    async def roll(interaction: discord.Interaction, sides: app_commands.Range[int, 2, 100] = 6) -> None:
        await interaction.response.send_message(f"🎲 {random.randint(1, sides)} (d{sides})", view=RollAgain())

    @tree.command(name="fruit", description="Picks a fruit", guild=guild)
    async def fruit(interaction: discord.Interaction, name: str) -> None:
        await interaction.response.send_message(f"you picked {name}")

    @fruit.autocomplete("name")
    async def fruit_names(interaction: discord.Interaction, current: str) -> list:
        return [app_commands.Choice(name=f, value=f) for f in ("apple", "apricot", "banana") if f.startswith(current)]

    @tree.command(name="feedback", description="Tell us", guild=guild)
    async def feedback(interaction: discord.Interaction) -> None:
        await interaction.response.send_modal(Feedback())

    @tree.command(name="slow", description="Thinks first", guild=guild)
    async def slow(interaction: discord.Interaction) -> None:
        await interaction.response.defer(thinking=True)
        await asyncio.sleep(0.3)
        await interaction.edit_original_response(content="done thinking")
        await interaction.followup.send("and one more thing")

    @client.event
    async def on_message(message: discord.Message) -> None:
        if message.author.id != client.user.id and message.content == "!ping":
            await message.channel.send("pong")

    @client.event
    async def on_ready() -> None:
        await tree.sync(guild=guild)
        client.synced.set()

    return client
