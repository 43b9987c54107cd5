"""Sends one interaction as the user's chat client does and follows it on the user's
gateway session until it settles (run-interaction.ts)."""

from __future__ import annotations

import asyncio
import os
import time
from typing import Any, Dict, List, Optional

import aiohttp

from .describe import EPHEMERAL, LOADING, describe_failure_reason
from .http import call_api, describe_error
from .result import InteractionResult
from .session import Dispatch, UserSession

CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE, UPDATE_MESSAGE, AUTOCOMPLETE_RESULT, MODAL = 4, 5, 6, 7, 8, 9


async def run_interaction(
    http: aiohttp.ClientSession,
    base: str,
    token: str,
    session: UserSession,
    body: Dict[str, Any],
    *,
    quiet: float,
    final_timeout: float,
    source: Optional[dict] = None,
) -> InteractionResult:
    """`POST /interactions?wait=true` naming the user's gateway session and a nonce, then
    on that session: a deferred reply until its original response is filled in, an update
    until the component's message changes, then until nothing of it comes for `quiet` s.
    `source` is the message whose component was used."""
    seen: List[Dispatch] = []
    wake = asyncio.Event()

    def listener(dispatch: Dispatch) -> None:
        seen.append(dispatch)
        wake.set()

    stop = session.listen(listener)
    try:
        answer = await call_api(
            http,
            base,
            "POST",
            "/api/v10/interactions?wait=true",
            token=token,
            body={**body, "nonce": _new_nonce(), "session_id": session.session_id},
        )
        if answer.status != 200:
            return InteractionResult(error=f"ACS refused the interaction (the app never saw it):\n{describe_error(answer)}")
        follower = _Follower(answer.body, source)
        read = 0

        def read_seen() -> bool:
            nonlocal read
            changed = False
            while read < len(seen):
                changed = follower.take(seen[read]) or changed
                read += 1
            return changed

        async def wait_until(deadline: float) -> None:
            wake.clear()
            if read < len(seen):
                return
            try:
                await asyncio.wait_for(wake.wait(), max(0.0, deadline - time.monotonic()))
            except asyncio.TimeoutError:
                pass

        final_by = time.monotonic() + final_timeout
        read_seen()
        while not follower.is_final() and time.monotonic() < final_by:
            await wait_until(final_by)
            read_seen()
        quiet_from = time.monotonic()
        while time.monotonic() < quiet_from + quiet:
            await wait_until(quiet_from + quiet)
            if read_seen():
                quiet_from = time.monotonic()
        return follower.result(final_timeout)
    finally:
        stop()


class _Follower:
    """The messages of one interaction as the user's session sees them arrive."""

    def __init__(self, outcome: dict, source: Optional[dict]) -> None:
        self.outcome = outcome
        self.source = source
        self.interaction_id = str((outcome.get("interaction") or {}).get("id", ""))
        self.callback_type = (outcome.get("response") or {}).get("type")
        self.messages: Dict[str, dict] = {}
        for message in outcome.get("messages") or []:
            self.messages[message["id"]] = message
        is_original = self.callback_type in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE)
        first = (outcome.get("messages") or [None])[0]
        self.original_id = first["id"] if is_original and first else None
        self.source_updated = False
        self.followed_up = False

    def take(self, dispatch: Dispatch) -> bool:
        """Takes one dispatch; answers whether it was about this interaction."""
        if dispatch.t not in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            return False
        d = dispatch.d or {}
        of_this = (d.get("interaction_metadata") or {}).get("id") == self.interaction_id
        is_source = self.source is not None and d.get("id") == self.source.get("id")
        if not of_this and not is_source and d.get("id") not in self.messages:
            return False
        if is_source:
            self.source_updated = True
        elif d.get("id") != self.original_id:
            self.followed_up = True
        self.messages[d["id"]] = {**self.messages.get(d["id"], {}), **d}
        return True

    def is_final(self) -> bool:
        """Whether the app has given its final answer (a deferred reply filled, an update seen)."""
        if self.outcome.get("outcome") != "success":
            return True
        if self.callback_type == DEFERRED_CHANNEL_MESSAGE:
            original = self.messages.get(self.original_id) if self.original_id else None
            return original is not None and ((original.get("flags") or 0) & LOADING) == 0
        if self.callback_type == DEFERRED_UPDATE_MESSAGE:
            return self.source_updated or self.followed_up
        if self.callback_type == UPDATE_MESSAGE:
            return self.source_updated
        return True

    def result(self, final_timeout: float) -> InteractionResult:
        outcome = self.outcome
        acknowledged = outcome.get("outcome") == "success"
        kind = self.callback_type
        deferred = kind in (DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE_MESSAGE)
        response = None
        data = (outcome.get("response") or {}).get("data") or {}
        if self.original_id is not None:
            response = self.messages.get(self.original_id)
        elif self.source is not None and kind in (UPDATE_MESSAGE, DEFERRED_UPDATE_MESSAGE):
            response = self.messages.get(self.source["id"])
            if response is None:
                response = {**self.source, **data} if kind == UPDATE_MESSAGE else self.source
        followups = [m for k, m in self.messages.items() if k != self.original_id and k != (self.source or {}).get("id")]
        error = None
        if not acknowledged:
            error = describe_failure_reason(outcome.get("reason_code"))
        elif kind == DEFERRED_CHANNEL_MESSAGE and not self.is_final():
            error = (
                f"the app deferred its reply (callback type 5) but did not fill it in within {final_timeout:g} s: "
                "the user still sees “thinking…” (edit the original response, e.g. interaction.edit_original_response)"
            )
        interaction = outcome.get("interaction")
        modal = None
        if kind == MODAL:
            modal = {
                "id": self.interaction_id,
                "custom_id": data.get("custom_id"),
                "title": data.get("title"),
                "components": data.get("components") or [],
                "channel_id": (interaction or {}).get("channel_id"),
                "application_id": (interaction or {}).get("application_id"),
            }
        return InteractionResult(
            ok=acknowledged and error is None,
            acknowledged=acknowledged,
            deferred=deferred,
            ephemeral=response is not None and ((response.get("flags") or 0) & EPHEMERAL) != 0,
            response=response,
            followups=followups,
            modal=modal,
            choices=(data.get("choices") or []) if kind == AUTOCOMPLETE_RESULT else None,
            error=error,
            interaction=interaction,
        )


_nonces = 0


def _new_nonce() -> str:
    """A snowflake-like nonce, unique per call, as the chat client makes one."""
    global _nonces
    _nonces = (_nonces + 1) % 4096
    millis = int(time.time() * 1000) - 1420070400000
    return str((millis << 22) | ((os.getpid() & 0x3FF) << 12) | _nonces)
