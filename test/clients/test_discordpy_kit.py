"""The Python kit against a discord.py bot, run by test/testkit-python.e2e.test.ts:
`python3 -m pytest -p acs_testkit.pytest_plugin` with ACS_URL and ACS_ADMIN_TOKEN.
`test_fails_with_transcript` fails on purpose: the Jest test checks its printed transcript.
"""

import asyncio

import pytest
import pytest_asyncio

from acs_testkit import point_discord_py
from discordpy_kit_bot import make_bot

#: GATEWAY_MESSAGE_CONTENT_LIMITED: the bot may ask for message content (its `!ping`).
MESSAGE_CONTENT_LIMITED = 1 << 19


@pytest_asyncio.fixture
async def bot(acs_world):
    answer = await acs_world.acs.admin(
        "PATCH", f"/admin/applications/{acs_world.app.id}", {"flags": MESSAGE_CONTENT_LIMITED}
    )
    assert answer.status == 200, answer.body
    await point_discord_py(acs_world.acs)
    client = make_bot(int(acs_world.guild["id"]))
    running = asyncio.ensure_future(client.start(acs_world.app.bot_token))
    synced = asyncio.ensure_future(client.synced.wait())
    done, _ = await asyncio.wait({running, synced}, timeout=30, return_when=asyncio.FIRST_COMPLETED)
    if synced not in done:
        synced.cancel()
        await client.close()
        raise RuntimeError(f"the bot did not sync its commands: {running.exception() if running.done() else 'timed out'}")
    yield client
    await client.close()
    await asyncio.gather(running, return_exceptions=True)


async def test_slash_and_button_edit(acs_world, bot):
    alice = acs_world.user("alice")
    rolled = await alice.slash("/roll sides:20", channel="general")
    assert rolled.ok, rolled.error
    assert rolled.response["content"].endswith("(d20)")
    assert not rolled.deferred and not rolled.ephemeral
    again = await acs_world.user("bob").click(rolled.response, custom_id="again")
    assert again.ok, again.error
    assert again.response["id"] == rolled.response["id"]
    assert again.response["content"].startswith("rolled again: ")
    with pytest.raises(LookupError, match='no button "nope" .*again'):
        await alice.click(rolled.response, custom_id="nope")


async def test_autocomplete(acs_world, bot):
    completed = await acs_world.user("alice").autocomplete("/fruit name:ap")
    assert [c["value"] for c in completed.choices] == ["apple", "apricot"]
    with pytest.raises(LookupError, match=r"no slash command /nope here \(.*/roll"):
        await acs_world.user("alice").slash("/nope")


async def test_modal_with_ephemeral_reply(acs_world, bot):
    alice = acs_world.user("alice")
    opened = await alice.slash("/feedback")
    assert opened.ok, opened.error
    assert opened.modal["title"] == "Feedback"
    submitted = await alice.submit_modal(opened.modal, {"feedback": "great dice"})
    assert submitted.ok, submitted.error
    assert submitted.ephemeral
    assert submitted.response["content"] == "thanks for: great dice"


async def test_deferred_reply_and_followup(acs_world, bot):
    slow = await acs_world.user("bob").slash("/slow")
    assert slow.ok, slow.error
    assert slow.deferred
    assert slow.response["content"] == "done thinking"
    assert [m["content"] for m in slow.followups] == ["and one more thing"]


async def test_prefix_message(acs_world, bot):
    alice = acs_world.user("alice")
    sent = await alice.send("general", "!ping")
    general = acs_world.channel("general")
    for _ in range(100):
        seen = await general.history(viewer=alice)
        if seen and seen[0]["content"] == "pong":
            break
        await asyncio.sleep(0.1)
    assert [m["content"] for m in seen[:2]] == ["pong", "!ping"]
    assert seen[1]["id"] == sent["id"]


async def test_provisional_players_in_a_lobby(acs_world):
    ada = await acs_world.player("steam-1001", name="Ada")
    bo = await acs_world.player("steam-1002")
    assert (await acs_world.player("steam-1001")).id == ada.id
    me = await ada.me()
    assert me["global_name"] == "Ada" and me["public_flags"] & (1 << 23)
    lobby = await ada.join_lobby("match-1", metadata={"map": "dust"})
    assert (await bo.join_lobby("match-1"))["id"] == lobby["id"]
    await ada.send_lobby_message(lobby, "gl hf")
    await bo.send_lobby_message(lobby["id"], "you too")
    assert [m["content"] for m in await ada.lobby_messages(lobby)] == ["you too", "gl hf"]
    await bo.leave_lobby(lobby)
    assert (await bo.call("GET", f"/lobbies/{lobby['id']}/messages")).status == 403


@pytest.mark.acs_world(users=["carol"], channels=["dice"])
async def test_fails_with_transcript(acs_world, bot):
    rolled = await acs_world.user("carol").slash("/roll sides:6", channel="dice")
    assert rolled.response["content"] == "a six, always"
