"""A running ACS, its worlds and their users (connect-acs.ts, world.ts, world-user.ts)."""

from __future__ import annotations

import asyncio
import os
import re
import secrets
from dataclasses import dataclass
from typing import Any, Dict, List, Mapping, Optional, Sequence, Union

import aiohttp

from .http import ApiAnswer, call_api, describe_error
from .interaction import run_interaction
from .locate import locate_stack
from .parse import parse_invocation
from .result import InteractionResult
from .session import Dispatch, UserSession
from .transcript import Transcript

#: Scopes the world's app is installed with.
INSTALL_SCOPES = "bot applications.commands"

BUTTON, TEXT_INPUT, FILE_UPLOAD = 2, 4, 19
SELECTS = (3, 5, 6, 7, 8)

Message = Dict[str, Any]
ChannelRef = Union[str, Mapping[str, Any], "WorldChannel"]
UserRef = Union[str, Mapping[str, Any], "WorldUser"]


class AcsError(Exception):
    """ACS refused a call the kit made (its answer is in the message)."""


@dataclass(frozen=True)
class WorldApp:
    """The world's application: what a bot needs to log in (`client.start(bot_token)`) or verify requests."""

    id: str
    name: str
    bot_token: str
    public_key: str
    client_secret: str


class Acs:
    """A running ACS, through its admin API. Close it with `await acs.close()` (or `async with`)."""

    def __init__(self, url: str, admin_token: str, *, quiet: float, final_timeout: float) -> None:
        self.url = url
        self._admin_token = admin_token
        self.quiet = quiet
        self.final_timeout = final_timeout
        self.http = aiohttp.ClientSession()
        self._gateway: Optional[str] = None

    async def __aenter__(self) -> "Acs":
        return self

    async def __aexit__(self, *exc: Any) -> None:
        await self.close()

    async def close(self) -> None:
        await self.http.close()

    async def gateway_url(self) -> str:
        """The gateway's WebSocket URL, as `GET /gateway` answers it."""
        if self._gateway is None:
            answer = await call_api(self.http, self.url, "GET", "/api/v10/gateway")
            if answer.status != 200 or not isinstance(answer.body, dict) or "url" not in answer.body:
                raise AcsError(f"GET /gateway failed:\n{describe_error(answer)}")
            self._gateway = str(answer.body["url"])
        return self._gateway

    async def admin(self, method: str, route: str, body: Any = None) -> ApiAnswer:
        """One admin API call (`Authorization: Admin <token>`), whatever its status."""
        return await call_api(self.http, self.url, method, route, token=f"Admin {self._admin_token}", body=body)

    async def _build(self, expected: int, method: str, route: str, body: Any = None) -> Any:
        answer = await self.admin(method, route, body)
        if answer.status != expected:
            raise AcsError(f"building the world: {method} {route} answered\n{describe_error(answer)}")
        return answer.body

    async def create_world(
        self,
        users: Sequence[str] = ("alice",),
        channels: Sequence[str] = ("general",),
        guild_name: Optional[str] = None,
        app_name: Optional[str] = None,
    ) -> "World":
        """A new world: an owner, a guild with text `channels` and `users` as members, an
        application owned by the owner and installed in the guild with `bot applications.commands`."""
        users, channels = list(users), list(channels)
        if not channels:
            raise ValueError("a world needs at least one channel")
        for what, names in (("user", users), ("channel", channels)):
            twice = next((n for i, n in enumerate(names) if names.index(n) != i), None)
            if twice is not None:
                raise ValueError(f'the {what} name "{twice}" is given twice')
        suffix = secrets.token_hex(3)
        owner = await self._build(201, "POST", "/admin/users", {"username": f"owner-{suffix}"})
        guild = await self._build(
            201, "POST", "/admin/guilds", {"name": guild_name or f"Test World {suffix}", "owner_id": owner["id"]}
        )
        created = []
        for name in channels:
            channel = await self._build(201, "POST", f"/admin/guilds/{guild['id']}/channels", {"name": name, "type": 0})
            created.append((channel["id"], channel["name"]))
        members = []
        for name in users:
            user = await self._build(201, "POST", "/admin/users", {"username": name})
            await self._build(201, "PUT", f"/admin/guilds/{guild['id']}/members/{user['id']}", {})
            members.append((user["id"], name))
        app = await self._build(
            201, "POST", "/admin/applications", {"name": app_name or "Test App", "owner_id": owner["id"]}
        )
        await self._build(
            200,
            "POST",
            "/admin/oauth2/authorize",
            {"client_id": app["id"], "user_id": owner["id"], "scope": INSTALL_SCOPES, "guild_id": guild["id"]},
        )
        return World(
            self,
            app=WorldApp(app["id"], app["name"], app["bot_token"], app["verify_key"], app["client_secret"]),
            guild={"id": guild["id"], "name": guild["name"]},
            owner={"id": owner["id"], "username": owner["username"]},
            channels=created,
            users=members,
        )


async def connect_acs(
    url: Optional[str] = None,
    admin_token: Optional[str] = None,
    *,
    quiet: float = 0.5,
    final_timeout: float = 10.0,
    env: Optional[Mapping[str, str]] = None,
) -> Acs:
    """Connects to a running ACS: `url` and `admin_token`, else ACS_URL and ACS_ADMIN_TOKEN,
    else the `npm start` found through ACS_DATA_DIR, a `.data/` above the current folder
    or `~/.acs/stack.json`. Checks that the admin token is accepted. `quiet` and
    `final_timeout` (seconds) set how results wait (each action takes them too)."""
    if url and admin_token:
        api_url, token = url.rstrip("/"), admin_token
    else:
        merged = dict(os.environ if env is None else env)
        if url:
            merged["ACS_URL"] = url
        if admin_token:
            merged["ACS_ADMIN_TOKEN"] = admin_token
        located = locate_stack(merged)
        api_url, token = located.api_url, located.admin_token
    acs = Acs(api_url, token, quiet=quiet, final_timeout=final_timeout)
    try:
        # An admin route that answers 404 for an unknown user, 401 for a wrong token.
        probe = await acs.admin("POST", "/admin/users/1/sessions")
    except aiohttp.ClientError as error:
        await acs.close()
        raise ConnectionError(f"ACS does not answer at {api_url} ({error}): is it running?") from error
    if probe.status == 401:
        await acs.close()
        raise PermissionError(f"ACS at {api_url} refused the admin token (401): is it the one this stack started with?")
    return acs


class WorldChannel:
    """A text channel of the world."""

    def __init__(self, world: "World", channel_id: str, name: str) -> None:
        self._world = world
        self.id = channel_id
        self.name = name

    async def history(self, viewer: UserRef, limit: int = 50) -> List[Message]:
        """Its messages as `viewer` (a world user or their name) sees them, newest first."""
        user = self._world.user(viewer) if isinstance(viewer, str) else viewer
        return await user.history(self, limit=limit)

    def __repr__(self) -> str:
        return f"<WorldChannel #{self.name} {self.id}>"


class World:
    """A guild of its own with text channels and users who are its members, and an
    application installed in it with `bot applications.commands`, owned by the guild's
    owner. Its users act as the chat client does; `transcript()` tells what happened."""

    def __init__(self, acs: Acs, *, app: WorldApp, guild: dict, owner: dict, channels: list, users: list) -> None:
        self.acs = acs
        self.app = app
        #: {"id", "name"}
        self.guild = guild
        #: The guild's owner, who also owns the app (not one of the named users): {"id", "username"}.
        self.owner = owner
        self._channels = [WorldChannel(self, cid, name) for cid, name in channels]
        self._users = {name: WorldUser(self, uid, name) for uid, name in users}
        self._players: Dict[str, "WorldPlayer"] = {}
        self._log = Transcript()
        self._destroyed = False
        self._log.note(
            f'world: guild "{guild["name"]}" ({guild["id"]}), channels {", ".join("#" + c.name for c in self._channels)}, '
            f'users {", ".join(self._users)}, app "{app.name}" ({app.id})'
        )

    @property
    def users(self) -> List["WorldUser"]:
        return list(self._users.values())

    @property
    def channels(self) -> List[WorldChannel]:
        return list(self._channels)

    def user(self, name: str) -> "WorldUser":
        """A user of the world by name; raises naming the world's users."""
        if isinstance(name, WorldUser):
            return name
        found = self._users.get(name)
        if found is None:
            raise LookupError(f'no user "{name}" in this world (its users: {", ".join(self._users)})')
        return found

    async def player(self, external_user_id: str, name: Optional[str] = None) -> "WorldPlayer":
        """A game's player without a chat account: the world's app makes them a provisional
        account with its Bot Token Endpoint (`POST /partner-sdk/token/bot`; the same
        `external_user_id` is the same player every time). `name` is their display name
        (`preferred_global_name`). The player joins lobbies and chats with their Bearer token."""
        body: Dict[str, Any] = {"external_user_id": external_user_id}
        if name is not None:
            body["preferred_global_name"] = name
        answer = await call_api(
            self.acs.http, self.acs.url, "POST", "/api/v10/partner-sdk/token/bot", token=f"Bot {self.app.bot_token}", body=body
        )
        if answer.status != 200:
            raise AcsError(f'making the player "{external_user_id}" failed:\n{describe_error(answer)}')
        token = f"Bearer {answer.body['access_token']}"
        me = await call_api(self.acs.http, self.acs.url, "GET", "/api/v10/users/@me", token=token)
        if me.status != 200:
            raise AcsError(f'reading the player "{external_user_id}" failed:\n{describe_error(me)}')
        player = WorldPlayer(self, str(me.body["id"]), external_user_id, token)
        self._players[player.id] = player
        self._log.note(f"player {external_user_id}: provisional account {player.id}")
        return player

    def channel(self, ref: Optional[ChannelRef] = None) -> WorldChannel:
        """A channel of the world by name (or its object or id); none: the first. Raises naming the channels."""
        if ref is None:
            return self._channels[0]
        if isinstance(ref, WorldChannel):
            return ref
        key = ref.lstrip("#") if isinstance(ref, str) else str(ref["id"])
        found = next((c for c in self._channels if key in (c.name, c.id)), None)
        if found is None:
            raise LookupError(f'no channel "{key}" in this world (its channels: {", ".join(c.name for c in self._channels)})')
        return found

    def transcript(self) -> str:
        """Every interaction, answer and message the world's users saw, as readable text."""
        return self._log.text()

    async def destroy(self) -> None:
        """Cleans up through the admin API: closes the users' sessions, deletes the app
        (its bot leaves the guild and its sessions end; its commands, installs and tokens
        go), then the guild with its channels and members, then the users, the players and
        the owner (their sessions and tokens end)."""
        if self._destroyed:
            return
        self._destroyed = True
        await asyncio.gather(*(u.close() for u in self._users.values()))
        steps = [("DELETE", f"/admin/applications/{self.app.id}"), ("DELETE", f"/admin/guilds/{self.guild['id']}")]
        steps += [("DELETE", f"/admin/users/{u.id}") for u in [*self._users.values(), *self._players.values()]]
        steps.append(("DELETE", f"/admin/users/{self.owner['id']}"))
        failures = []
        for method, route in steps:
            answer = await self.acs.admin(method, route)
            # 404: gone already (the test removed it).
            if answer.status not in (204, 404):
                failures.append(f"{method} {route}: {describe_error(answer)}")
        self._log.note("world destroyed")
        if failures:
            raise AcsError("destroying the world failed:\n" + "\n".join(failures))

    # What the users need of their world.
    def _heard(self, dispatch: Dispatch) -> None:
        channel_id = (dispatch.d or {}).get("channel_id")
        name = next((c.name for c in self._channels if c.id == channel_id), str(channel_id))
        self._log.observe(dispatch, name)

    def _user_id(self, ref: UserRef) -> str:
        if isinstance(ref, WorldUser):
            return ref.id
        if not isinstance(ref, str):
            return str(ref["id"])
        if ref in self._users:
            return self._users[ref].id
        return ref if re.fullmatch(r"\d+", ref) else self.user(ref).id

    def _user_name(self, user_id: str) -> Optional[str]:
        return next((u.name for u in self._users.values() if u.id == user_id), None)


class WorldPlayer:
    """A game's player who has no chat account: a provisional account of the world's app
    (Social SDK). It acts with its Bearer token as the game's client does: its user,
    lobbies and their messages (world-player.ts)."""

    def __init__(self, world: World, user_id: str, external_user_id: str, token: str) -> None:
        self._world = world
        #: The provisional account's user id.
        self.id = user_id
        #: The player's id in the game (`external_user_id`).
        self.external_user_id = external_user_id
        #: `Authorization` value of the player's access token (`Bearer …`, 7 days).
        self.token = token

    def __repr__(self) -> str:
        return f"<WorldPlayer {self.external_user_id} {self.id}>"

    async def me(self) -> dict:
        """The player as `GET /users/@me` answers it (a provisional account: public flag 1 << 23)."""
        return await self._expect(200, "GET", "/users/@me")

    async def join_lobby(
        self,
        secret: str,
        metadata: Optional[Mapping[str, str]] = None,
        member_metadata: Optional[Mapping[str, str]] = None,
    ) -> dict:
        """Joins the app's lobby of `secret`, creating it when no lobby has that secret
        (`PUT /lobbies`, the SDK's create-or-join); answers the lobby with its members."""
        body: Dict[str, Any] = {"secret": secret}
        if metadata is not None:
            body["lobby_metadata"] = dict(metadata)
        if member_metadata is not None:
            body["member_metadata"] = dict(member_metadata)
        lobby = await self._expect(200, "PUT", "/lobbies", body)
        self._world._log.note(f'{self.external_user_id} joined lobby {lobby["id"]} ("{secret}")')
        return lobby

    async def leave_lobby(self, lobby: Union[str, Mapping[str, Any]]) -> None:
        """Leaves a lobby (`DELETE /lobbies/{id}/members/@me`)."""
        lobby_id = _id_of(lobby)
        await self._expect(204, "DELETE", f"/lobbies/{lobby_id}/members/@me")
        self._world._log.note(f"{self.external_user_id} left lobby {lobby_id}")

    async def send_lobby_message(self, lobby: Union[str, Mapping[str, Any]], content: str) -> Message:
        """Posts a message to a lobby the player is in."""
        lobby_id = _id_of(lobby)
        message = await self._expect(201, "POST", f"/lobbies/{lobby_id}/messages", {"content": content})
        self._world._log.note(f"{self.external_user_id} in lobby {lobby_id}: {content}")
        return message

    async def lobby_messages(self, lobby: Union[str, Mapping[str, Any]], limit: int = 50) -> List[Message]:
        """A lobby's messages, newest first (`limit` 1-200)."""
        return await self._expect(200, "GET", f"/lobbies/{_id_of(lobby)}/messages?limit={limit}")

    async def call(self, method: str, route: str, body: Any = None) -> ApiAnswer:
        """Any public API call with the player's token, whatever its status."""
        return await call_api(self._world.acs.http, self._world.acs.url, method, f"/api/v10{route}", token=self.token, body=body)

    async def _expect(self, status: int, method: str, route: str, body: Any = None) -> Any:
        answer = await self.call(method, route, body)
        if answer.status != status:
            raise AcsError(f"{method} {route} as player {self.external_user_id} failed:\n{describe_error(answer)}")
        return answer.body


def _id_of(ref: Union[str, Mapping[str, Any]]) -> str:
    return ref if isinstance(ref, str) else str(ref["id"])


class WorldUser:
    """A user of a world, acting as the chat client does: a session token and a gateway
    session (opened at the first action) on which the answers arrive. Each action takes
    `quiet` and `final_timeout` (seconds) to override the world's."""

    def __init__(self, world: World, user_id: str, name: str) -> None:
        self._world = world
        self.id = user_id
        self.name = name
        self._opened: Optional[asyncio.Future] = None

    def __repr__(self) -> str:
        return f"<WorldUser {self.name} {self.id}>"

    async def slash(self, line: str, channel: Optional[ChannelRef] = None, **timing: float) -> InteractionResult:
        """Invokes a slash command as typed in the command bar: `/roll sides:6`, `/tag edit name:"a b"`."""
        place = self._world.channel(channel)
        data = parse_invocation(line, await self.commands(place), resolve=self._resolve)
        return await self._run(f"{line.strip()}  (#{place.name})", timing, {"type": 2, "channel_id": place.id, "data": data})

    async def autocomplete(self, line: str, channel: Optional[ChannelRef] = None, **timing: float) -> InteractionResult:
        """Asks the app for an option's choices as the user types (`/roll sides:1`; the
        option typed last has the focus, `city:Pa?` marks another): the result's `choices`."""
        place = self._world.channel(channel)
        data = parse_invocation(line, await self.commands(place), autocomplete=True, resolve=self._resolve)
        return await self._run(
            f"autocomplete {line.strip()}  (#{place.name})", timing, {"type": 4, "channel_id": place.id, "data": data}
        )

    async def user_command(
        self, name: str, target: UserRef, channel: Optional[ChannelRef] = None, **timing: float
    ) -> InteractionResult:
        """Runs the USER command `name` on `target` (a user of the world, by name, or any user's id)."""
        target_id = self._world._user_id(target)
        shown = self._world._user_name(target_id) or f"user {target_id}"
        return await self._context_command(name, 2, target_id, f'user command "{name}" on {shown}', channel, timing)

    async def message_command(
        self, name: str, target: Union[Message, str], channel: Optional[ChannelRef] = None, **timing: float
    ) -> InteractionResult:
        """Runs the MESSAGE command `name` on `target` (a message, or its id)."""
        target_id = target if isinstance(target, str) else str(target["id"])
        return await self._context_command(name, 3, target_id, f'message command "{name}" on message {target_id}', channel, timing)

    async def click(self, message: Optional[Message], custom_id: str, **timing: float) -> InteractionResult:
        """Clicks the button `custom_id` of `message` (a result's `response` or a follow-up)."""
        component = _find_component(message, custom_id, (BUTTON,), "click")
        label = component.get("label") or custom_id
        return await self._run(
            f"clicks [{label}] ({custom_id}) on message {message['id']}",
            timing,
            self._component_body(message, {"component_type": BUTTON, "custom_id": custom_id}),
            source=message,
        )

    async def select(
        self, message: Optional[Message], custom_id: str, values: Sequence[str], **timing: float
    ) -> InteractionResult:
        """Picks `values` in the select `custom_id` of `message`."""
        component = _find_component(message, custom_id, SELECTS, "select")
        values = list(values)
        known = [str(o.get("value")) for o in component["options"]] if component.get("options") is not None else None
        unknown = [v for v in values if known is not None and v not in known]
        if unknown:
            raise LookupError(
                f"select {custom_id} has no option {', '.join(repr(v) for v in unknown)} (it has: {', '.join(known or [])})"
            )
        return await self._run(
            f"selects {', '.join(values)} in [{custom_id}] on message {message['id']}",
            timing,
            self._component_body(message, {"component_type": component["type"], "custom_id": custom_id, "values": values}),
            source=message,
        )

    async def submit_modal(
        self, modal: Optional[dict], answers: Mapping[str, Union[str, Sequence[str]]], **timing: float
    ) -> InteractionResult:
        """Submits the modal the app opened (a result's `modal`) with an answer per input
        custom_id: text for a text input, values (a list, or one string) for a select."""
        if not modal:
            raise ValueError("submit_modal needs the modal the app opened (a result's `modal`), and it is None")
        inputs = _list_inputs(modal.get("components") or [])
        for custom_id in answers:
            if custom_id not in inputs:
                raise LookupError(
                    f'modal "{modal.get("title")}" ({modal.get("custom_id")}) has no input "{custom_id}" '
                    f"(it has: {', '.join(inputs) or 'none'})"
                )
        components = []
        for custom_id, answer in answers.items():
            field, in_label = inputs[custom_id]
            if field.get("type") == FILE_UPLOAD:
                raise ValueError(f"{custom_id} is a file upload: use the CLI's --file for now")
            if field.get("type") == TEXT_INPUT:
                component = {"type": TEXT_INPUT, "custom_id": custom_id, "value": str(answer)}
            else:
                given = [answer] if isinstance(answer, str) else list(answer)
                component = {"type": field.get("type"), "custom_id": custom_id, "values": given}
            components.append({"type": 18, "component": component} if in_label else {"type": 1, "components": [component]})
        shown = " ".join(f"{k}={answer!r}" for k, answer in answers.items())
        return await self._run(
            f'submits modal "{modal.get("title")}" ({modal.get("custom_id")}): {shown}',
            timing,
            {
                "type": 5,
                "application_id": modal.get("application_id"),
                "guild_id": self._world.guild["id"],
                "channel_id": modal.get("channel_id"),
                "data": {"id": modal["id"], "custom_id": modal.get("custom_id"), "components": components},
            },
        )

    async def send(self, channel: ChannelRef, message: Union[str, Mapping[str, Any]]) -> Message:
        """Sends a plain message to a channel of the world, as the chat client does
        (`POST /channels/{id}/messages`): content, or a whole message body. Returns the
        message; raises with ACS's error when refused."""
        place = self._world.channel(channel)
        token, _ = await self._open()
        body = {"content": message} if isinstance(message, str) else dict(message)
        answer = await call_api(
            self._world.acs.http, self._world.acs.url, "POST", f"/api/v10/channels/{place.id}/messages", token=token, body=body
        )
        if answer.status != 200:
            raise AcsError(f"{self.name} could not send to #{place.name}:\n{describe_error(answer)}")
        shown = body.get("content") if "content" in body else body
        self._world._log.note(f"{self.name} in #{place.name}: {shown!r}")
        return answer.body

    async def history(self, channel: ChannelRef, limit: int = 50) -> List[Message]:
        """The channel's messages as this user sees them, newest first (at most `limit`, 1-100)."""
        place = self._world.channel(channel)
        token, _ = await self._open()
        answer = await call_api(
            self._world.acs.http, self._world.acs.url, "GET", f"/api/v10/channels/{place.id}/messages?limit={limit}", token=token
        )
        if answer.status != 200:
            raise AcsError(f"{self.name} could not read #{place.name}:\n{describe_error(answer)}")
        return answer.body

    async def commands(self, channel: Optional[ChannelRef] = None) -> List[dict]:
        """The world's app's commands this user can use in the channel, as the command picker lists them."""
        place = self._world.channel(channel)
        token, _ = await self._open()
        index = await call_api(
            self._world.acs.http,
            self._world.acs.url,
            "GET",
            f"/api/v10/guilds/{self._world.guild['id']}/application-command-index?channel_id={place.id}",
            token=token,
        )
        if index.status != 200:
            raise AcsError(f"could not list the commands {self.name} can use:\n{describe_error(index)}")
        return [c for c in index.body["application_commands"] if c.get("application_id") == self._world.app.id]

    async def close(self) -> None:
        """Closes the user's gateway session."""
        opened, self._opened = self._opened, None
        if opened is not None:
            try:
                _, session = await opened
            except Exception:
                return
            await session.close()

    def _resolve(self, kind: str, name: str) -> str:
        return self._world._user_id(name) if kind == "user" else self._world.channel(name).id

    def _component_body(self, message: Message, data: dict) -> dict:
        return {
            "type": 3,
            "application_id": message.get("application_id") or self._world.app.id,
            "channel_id": message.get("channel_id"),
            "message_id": message["id"],
            "data": data,
        }

    async def _context_command(
        self, name: str, kind: int, target_id: str, action: str, channel: Optional[ChannelRef], timing: dict
    ) -> InteractionResult:
        place = self._world.channel(channel)
        commands = await self.commands(place)
        command = next((c for c in commands if c["name"] == name and c.get("type") == kind), None)
        if command is None:
            what = "user" if kind == 2 else "message"
            known = [f'"{c["name"]}"' for c in commands if c.get("type") == kind]
            raise LookupError(f'no {what} command "{name}" here ({", ".join(known) or f"no {what} commands registered"})')
        data = {"id": command["id"], "name": command["name"], "type": kind, "version": command["version"], "target_id": target_id}
        if command.get("guild_id"):
            data["guild_id"] = command["guild_id"]
        return await self._run(f"{action}  (#{place.name})", timing, {"type": 2, "channel_id": place.id, "data": data})

    async def _run(self, action: str, timing: dict, body: dict, source: Optional[Message] = None) -> InteractionResult:
        unknown = set(timing) - {"quiet", "final_timeout"}
        if unknown:
            raise TypeError(f"unknown option(s) {', '.join(sorted(unknown))} (quiet, final_timeout)")
        token, session = await self._open()
        acs = self._world.acs
        result = await run_interaction(
            acs.http,
            acs.url,
            token,
            session,
            {"application_id": self._world.app.id, "guild_id": self._world.guild["id"], **body},
            quiet=timing.get("quiet", acs.quiet),
            final_timeout=timing.get("final_timeout", acs.final_timeout),
            source=source,
        )
        self._world._log.interaction(self.name, action, result)
        return result

    async def _open(self):
        if self._opened is None:
            self._opened = asyncio.ensure_future(self._open_session())
        return await asyncio.shield(self._opened)

    async def _open_session(self):
        acs = self._world.acs
        created = await acs.admin("POST", f"/admin/users/{self.id}/sessions")
        if created.status != 201:
            raise AcsError(f"could not open a session for {self.name}:\n{describe_error(created)}")
        token = created.body["token"]
        session = await UserSession.open(acs.http, await acs.gateway_url(), token)
        session.listen(self._world._heard)
        return token, session


def _find_component(message: Optional[Message], custom_id: str, types: Sequence[int], verb: str) -> dict:
    if not message:
        raise ValueError(f"{verb} needs a message with components (a result's `response` or a follow-up), and it is {message!r}")
    found: List[dict] = []

    def visit(component: Any) -> None:
        if not isinstance(component, dict):
            return
        if component.get("custom_id") is not None:
            found.append(component)
        for child in component.get("components") or []:
            visit(child)
        if component.get("accessory"):
            visit(component["accessory"])

    for component in message.get("components") or []:
        visit(component)
    match = next((c for c in found if c["custom_id"] == custom_id and c.get("type") in types), None)
    if match is None:
        usable = [c["custom_id"] for c in found if c.get("type") in types]
        what = "button" if verb == "click" else "select"
        raise LookupError(f'message {message.get("id")} has no {what} "{custom_id}" (its {what}s: {", ".join(usable) or "none"})')
    return match


def _list_inputs(components: List[Any]) -> Dict[str, tuple]:
    """A modal's inputs by custom_id, and whether each sits in a label (else in a row)."""
    inputs: Dict[str, tuple] = {}

    def visit(component: Any, in_label: bool) -> None:
        if not isinstance(component, dict):
            return
        if component.get("type") == 18:
            visit(component.get("component"), True)
        elif component.get("custom_id") is not None and component.get("type") != 1:
            inputs[component["custom_id"]] = (component, in_label)
        for child in component.get("components") or []:
            visit(child, in_label)

    for component in components:
        visit(component, False)
    return inputs
