"""Discord objects as the chat client would show them, in plain text lines (describe-message.ts)."""

from __future__ import annotations

import json
from typing import Any, List, Optional

COMPONENT_NAMES = {2: "button", 3: "select", 5: "user select", 6: "role select", 7: "mentionable select", 8: "channel select", 10: "text"}

#: Message flags the text shows (D:resources/message.mdx §Message Flags).
EPHEMERAL = 1 << 6
LOADING = 1 << 7


def describe_message(message: dict, pad: str = "") -> List[str]:
    """One message: `author (marks): content`, its embeds as `┃` lines, then its components."""
    marks = []
    flags = message.get("flags") or 0
    if flags & EPHEMERAL:
        marks.append("only you can see this")
    if flags & LOADING:
        marks.append("thinking…")
    author = (message.get("author") or {}).get("username", "app")
    lines = [f"{pad}{author}{' (' + ', '.join(marks) + ')' if marks else ''}: {message.get('content') or ''}"]
    for embed in message.get("embeds") or []:
        lines.append(f"{pad}  ┃ {' — '.join(x for x in (embed.get('title'), embed.get('description')) if x)}")
        for field in embed.get("fields") or []:
            lines.append(f"{pad}  ┃ {field.get('name')}: {field.get('value')}")
    for attachment in message.get("attachments") or []:
        lines.append(f"{pad}  📎 {attachment.get('filename')}")
    return lines + [f"{pad}{line}" for line in describe_components(message)]


def describe_components(message: dict) -> List[str]:
    """A message's buttons and selects with their custom_ids, text displays as text."""
    lines: List[str] = []

    def visit(component: Any, depth: int) -> None:
        if not isinstance(component, dict):
            return
        pad = "  " * depth
        kind = component.get("type")
        name = COMPONENT_NAMES.get(kind)
        if kind == 10:
            lines.append(f"{pad}{component.get('content')}")
        elif kind == 2 and component.get("style") == 5:
            lines.append(f"{pad}[link {component.get('label') or ''}] {component.get('url')}")
        elif kind == 2 and component.get("style") == 6:
            lines.append(f"{pad}[premium button] sku {component.get('sku_id')}")
        elif name and component.get("custom_id") is not None:
            options = "|".join(str(o.get("value")) for o in component.get("options") or [])
            label = component.get("label") or component.get("placeholder") or ""
            off = " (disabled)" if component.get("disabled") else ""
            lines.append(
                f"{pad}[{name}{' ' + json.dumps(label, ensure_ascii=False) if label else ''}{off}] "
                f"{component['custom_id']}{' = ' + options if options else ''}"
            )
        for child in component.get("components") or []:
            visit(child, depth + 1)
        if component.get("accessory"):
            visit(component["accessory"], depth + 1)

    for component in message.get("components") or []:
        visit(component, 1)
    if lines:
        lines.insert(0, f"  components of message {message.get('id')}:")
    return lines


def describe_modal(interaction_id: Optional[str], modal: dict) -> List[str]:
    """A modal the app opened: its title and each input's label and custom_id."""
    lines = [f'modal "{modal.get("title")}" ({modal.get("custom_id")}), opened by interaction {interaction_id}:']

    def visit(component: Any) -> None:
        if not isinstance(component, dict):
            return
        if component.get("type") == 18:
            field = component.get("component") or {}
            optional = " (optional)" if field.get("required") is False else ""
            upload = " (file upload)" if field.get("type") == 19 else ""
            lines.append(f"  {component.get('label')}: {field.get('custom_id')}{optional}{upload}")
            return
        if component.get("type") == 4:
            lines.append(f"  {component.get('label') or component.get('custom_id')}: {component.get('custom_id')}")
        if component.get("type") == 10:
            lines.append(f"  {component.get('content')}")
        for child in component.get("components") or []:
            visit(child)

    for component in modal.get("components") or []:
        visit(component)
    return lines


def describe_failure_reason(reason_code: Optional[int]) -> str:
    """Why an interaction failed, by INTERACTION_FAILURE's reason_code."""
    if reason_code == 1:
        return (
            "the app could not be reached or answered badly (reason_code 1): its endpoint refused or failed "
            "the delivery, or its answer was not a valid interaction response"
        )
    if reason_code == 2:
        return (
            "the app did not answer in time (reason_code 2): no callback within the response deadline "
            "(is the bot running, logged in with this app’s token, and handling this interaction?)"
        )
    return f"the interaction failed (reason_code {reason_code if reason_code is not None else 'unknown'})"
