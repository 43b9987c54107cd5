"""A user's gateway session, as the chat client keeps one (user-session.ts)."""

from __future__ import annotations

import asyncio
import json
import sys
from typing import Any, Callable, List, Optional, Set

import aiohttp

#: The chat client's capabilities a user session identifies with (every one the dispatcher knows).
CLIENT_CAPABILITIES = 16381


class Dispatch:
    """A gateway dispatch as received (op 0)."""

    __slots__ = ("t", "d")

    def __init__(self, t: str, d: Any) -> None:
        self.t = t
        self.d = d


class UserSession:
    """Identified with the user's session token, heartbeating at Hello's interval, keeping
    every dispatch it receives so that an interaction's answers (INTERACTION_SUCCESS,
    MESSAGE_CREATE, MESSAGE_UPDATE of a deferred reply or an edit) are seen whenever they
    arrive."""

    def __init__(self, socket: aiohttp.ClientWebSocketResponse) -> None:
        self._socket = socket
        self.dispatches: List[Dispatch] = []
        self.session_id = ""
        self.closed_with: Optional[str] = None
        self._listeners: Set[Callable[[Dispatch], None]] = set()
        self._sequence: Optional[int] = None
        self._tasks: List[asyncio.Task] = []

    @classmethod
    async def open(
        cls, http: aiohttp.ClientSession, url: str, token: str, timeout: float = 15.0
    ) -> "UserSession":
        """Connects to the gateway at `url` and identifies with `token`; returns at READY."""
        try:
            socket = await http.ws_connect(f"{url.rstrip('/')}/?v=10&encoding=json", max_msg_size=0)
        except aiohttp.ClientError as error:
            raise ConnectionError(f"could not connect to the gateway at {url}: {error}") from error
        session = cls(socket)
        ready: asyncio.Future = asyncio.get_running_loop().create_future()
        session._tasks.append(asyncio.ensure_future(session._read(token, ready)))
        try:
            await asyncio.wait_for(asyncio.shield(ready), timeout)
        except asyncio.TimeoutError:
            await session.close()
            raise TimeoutError(f"the gateway at {url} did not send READY within {timeout} s") from None
        except BaseException:
            await session.close()
            raise
        return session

    async def _read(self, token: str, ready: asyncio.Future) -> None:
        try:
            async for message in self._socket:
                if message.type != aiohttp.WSMsgType.TEXT:
                    continue
                payload = json.loads(message.data)
                if payload.get("s") is not None:
                    self._sequence = payload["s"]
                if payload.get("op") == 10:
                    interval = payload["d"]["heartbeat_interval"] / 1000
                    self._tasks.append(asyncio.ensure_future(self._beat(interval)))
                    await self._send(
                        {
                            "op": 2,
                            "d": {
                                "token": token,
                                "capabilities": CLIENT_CAPABILITIES,
                                "properties": {"os": sys.platform, "browser": "acs-testkit", "device": "acs-testkit"},
                            },
                        }
                    )
                elif payload.get("op") == 0 and payload.get("t"):
                    dispatch = Dispatch(payload["t"], payload.get("d"))
                    if dispatch.t == "READY":
                        self.session_id = str(dispatch.d["session_id"])
                        if not ready.done():
                            ready.set_result(None)
                    self.dispatches.append(dispatch)
                    for listener in list(self._listeners):
                        listener(dispatch)
        finally:
            self.closed_with = f"{self._socket.close_code}"
            if not ready.done():
                ready.set_exception(ConnectionError(f"the gateway closed the session before READY: {self.closed_with}"))

    async def _beat(self, interval: float) -> None:
        while not self._socket.closed:
            await asyncio.sleep(interval)
            await self._send({"op": 1, "d": self._sequence})

    async def _send(self, payload: Any) -> None:
        if not self._socket.closed:
            await self._socket.send_str(json.dumps(payload))

    def listen(self, listener: Callable[[Dispatch], None]) -> Callable[[], None]:
        """Calls `listener` with each dispatch from now on; returns how to stop."""
        self._listeners.add(listener)
        return lambda: self._listeners.discard(listener)

    async def close(self) -> None:
        if not self._socket.closed:
            await self._socket.close()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            try:
                await task
            except (asyncio.CancelledError, Exception):
                pass
