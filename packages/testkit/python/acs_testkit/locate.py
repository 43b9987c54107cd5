"""Where a running ACS answers: the same rules as the JavaScript kit's locate-stack.ts."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Optional


@dataclass(frozen=True)
class StackLocation:
    """api-gateway's origin (the public API is under /api/v10), the admin token, and the
    `.data` folder of the `npm start` that runs it when it was found through one."""

    api_url: str
    admin_token: str
    data_dir: Optional[str] = None


def stack_pointer_file(home: Optional[str] = None) -> str:
    """The file `npm start` writes in the user's home naming its `.data` folder."""
    return os.path.join(home if home is not None else str(Path.home()), ".acs", "stack.json")


def find_data_dir(
    env: Mapping[str, str], cwd: Optional[str] = None, home: Optional[str] = None
) -> Optional[str]:
    """The `.data` folder of a running `npm start`: ACS_DATA_DIR; else `.data/stack.json` in
    `cwd` or a folder above it (inside a checkout); else the one `~/.acs/stack.json` names."""
    if env.get("ACS_DATA_DIR"):
        return env["ACS_DATA_DIR"]
    directory = os.path.abspath(cwd if cwd is not None else os.getcwd())
    while True:
        if os.path.exists(os.path.join(directory, ".data", "stack.json")):
            return os.path.join(directory, ".data")
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent
    pointer = _read_json(stack_pointer_file(home))
    data_dir = pointer.get("dataDir") if pointer else None
    if isinstance(data_dir, str) and data_dir and os.path.exists(os.path.join(data_dir, "stack.json")):
        return data_dir
    return None


def locate_stack(
    env: Optional[Mapping[str, str]] = None, cwd: Optional[str] = None, home: Optional[str] = None
) -> StackLocation:
    """The running ACS: ACS_URL and ACS_ADMIN_TOKEN (or ADMIN_TOKEN) when set; what is
    missing comes from the running `npm start`'s `.data` folder (its stack.json and
    admin-token). Raises saying what to do when neither gives both."""
    env = os.environ if env is None else env
    api_url = env.get("ACS_URL")
    admin_token = env.get("ACS_ADMIN_TOKEN")
    if admin_token is None:
        admin_token = env.get("ADMIN_TOKEN")
    data_dir = None if api_url and admin_token else find_data_dir(env, cwd=cwd, home=home)
    stack = _read_json(os.path.join(data_dir, "stack.json")) if data_dir else None
    if api_url is None and stack and isinstance(stack.get("apiUrl"), str):
        api_url = stack["apiUrl"]
    if admin_token is None and data_dir:
        admin_token = _read_text(os.path.join(data_dir, "admin-token"))
    if not api_url or not admin_token:
        lacks = ""
        if data_dir:
            lacks = f"; {data_dir} lacks {'admin-token' if api_url else 'a stack.json with apiUrl'}"
        raise LookupError(
            "no running ACS found: set ACS_URL and ACS_ADMIN_TOKEN, or run `npm start` in an ACS checkout "
            f"(it writes .data/stack.json and {stack_pointer_file(home)}){lacks}"
        )
    return StackLocation(api_url.rstrip("/"), admin_token, data_dir)


def _read_text(path: str) -> Optional[str]:
    try:
        with open(path, encoding="utf-8") as file:
            return file.read().strip() or None
    except OSError:
        return None


def _read_json(path: str) -> Optional[dict]:
    text = _read_text(path)
    if not text:
        return None
    try:
        parsed = json.loads(text)
    except ValueError:
        return None
    return parsed if isinstance(parsed, dict) else None
