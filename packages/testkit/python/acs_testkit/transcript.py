"""The readable story of a world (transcript.ts): each interaction a user started with
what the app answered (or why it failed), and every other message and edit the world's
users saw."""

from __future__ import annotations

import json
from typing import List, Tuple

from .describe import describe_message, describe_modal
from .result import InteractionResult
from .session import Dispatch


class Transcript:
    def __init__(self) -> None:
        self._entries: List[Tuple] = []
        self._heard: set = set()
        self._seq = 0

    def _next(self) -> int:
        self._seq += 1
        return self._seq

    def note(self, text: str) -> None:
        self._entries.append(("note", self._next(), text))

    def interaction(self, actor: str, action: str, result: InteractionResult) -> None:
        """Records an interaction once it settled."""
        self._entries.append(("interaction", self._next(), actor, action, result))

    def observe(self, dispatch: Dispatch, channel: str) -> None:
        """Records a message dispatch a user's session received (kept once when several users heard it)."""
        if dispatch.t not in ("MESSAGE_CREATE", "MESSAGE_UPDATE"):
            return
        d = dispatch.d or {}
        key = (
            f"{dispatch.t}:{d.get('id')}:{d.get('edited_timestamp') or ''}:{d.get('content') or ''}:"
            f"{d.get('flags') or 0}:{json.dumps(d.get('components') or [])}"
        )
        if key in self._heard:
            return
        self._heard.add(key)
        self._entries.append(("message", self._next(), dispatch.t, d, channel))

    def text(self) -> str:
        """The transcript as text, one line per event."""
        told_by = {}
        for entry in self._entries:
            if entry[0] == "interaction":
                result: InteractionResult = entry[4]
                for message in ([result.response] if result.response else []) + result.followups:
                    told_by[message.get("id")] = entry[1]
        lines: List[str] = []
        for entry in self._entries:
            if entry[0] == "note":
                lines.append(f"· {entry[2]}")
            elif entry[0] == "interaction":
                lines.extend(_describe_interaction(entry[2], entry[3], entry[4]))
            elif told_by.get(entry[3].get("id"), 0) < entry[1]:
                verb = "edited" if entry[2] == "MESSAGE_UPDATE" else "posted"
                lines.extend(describe_message(entry[3], f"#{entry[4]} {verb} · "))
        return "\n".join(lines)


def _indent(text: List[str], first: str) -> List[str]:
    return [(first if i == 0 else " " * len(first)) + line for i, line in enumerate(text)]


def _describe_interaction(actor: str, action: str, result: InteractionResult) -> List[str]:
    lines = [f"{actor} › {action}"]
    if result.choices is not None:
        shown = ", ".join(f"{c.get('name')} = {json.dumps(c.get('value'), ensure_ascii=False)}" for c in result.choices)
        lines.append(f"  ↳ {len(result.choices)} choice(s){': ' if result.choices else ''}{shown}")
    if result.modal:
        lines.extend(_indent(describe_modal(result.modal.get("id"), result.modal), "  ↳ "))
    if result.response:
        lines.extend(_indent(describe_message(result.response), "  ↳ deferred, then " if result.deferred else "  ↳ "))
    for followup in result.followups:
        lines.extend(_indent(describe_message(followup), "  ↳ follow-up: "))
    if result.acknowledged and not result.response and result.choices is None and not result.modal and not result.followups:
        lines.append("  ↳ ✓ acknowledged, no message")
    if result.error:
        lines.extend(_indent(result.error.split("\n"), "  ✗ "))
    return lines
