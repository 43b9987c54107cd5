"""One HTTP call to ACS, and Discord's error body as readable lines."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Optional

import aiohttp


@dataclass
class ApiAnswer:
    """One HTTP answer: its status and its body (parsed JSON, the text when not JSON, None when empty)."""

    status: int
    body: Any


async def call_api(
    http: aiohttp.ClientSession,
    base: str,
    method: str,
    route: str,
    *,
    token: Optional[str] = None,
    body: Any = None,
) -> ApiAnswer:
    """One call; answers `ApiAnswer(status, body)` and never raises on a status."""
    headers = {}
    data = None
    if token:
        headers["Authorization"] = token
    if body is not None:
        headers["Content-Type"] = "application/json"
        data = json.dumps(body)
    async with http.request(method, f"{base}{route}", headers=headers, data=data) as response:
        text = await response.text()
        status = response.status
    parsed: Any = None
    if text:
        try:
            parsed = json.loads(text)
        except ValueError:
            parsed = text
    return ApiAnswer(status, parsed)


def describe_error(answer: ApiAnswer) -> str:
    """Discord's error body as lines: `code message` and each leaf of the `errors` tree with its path."""
    body = answer.body
    if not isinstance(body, dict):
        return f"HTTP {answer.status}" + (f": {body}" if body else "")
    lines = [f"HTTP {answer.status}: {body.get('message', 'error')} (code {body.get('code')})"]

    def walk(node: Any, at: str) -> None:
        if not isinstance(node, dict):
            return
        for key, value in node.items():
            if key == "_errors" and isinstance(value, list):
                for error in value:
                    lines.append(f"  {at or '(body)'}: {error.get('message')} [{error.get('code')}]")
            else:
                walk(value, f"{at}.{key}" if at else key)

    walk(body.get("errors"), "")
    return "\n".join(lines)
