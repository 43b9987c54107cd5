"""What a user would type in the command bar (`/roll sides:6`), read into an invocation's
`data` against the command as the server lists it: parse-invocation.ts in Python. The
server validates again; this builds the body and explains a typo early."""

from __future__ import annotations

import json
import math
import re
from typing import Any, Callable, Dict, List, Optional

SUB_COMMAND, SUB_COMMAND_GROUP = 1, 2
STRING, INTEGER, BOOLEAN, USER, CHANNEL, ROLE, MENTIONABLE, NUMBER, ATTACHMENT = 3, 4, 5, 6, 7, 8, 9, 10, 11

TYPE_NAMES = {3: "string", 4: "integer", 5: "boolean", 6: "user", 7: "channel", 8: "role", 9: "mentionable", 10: "number", 11: "attachment"}

#: `(kind, name) -> id` for `@alice` (kind "user") and `#general` (kind "channel").
Resolver = Callable[[str, str], str]


def split_words(line: str) -> List[str]:
    """Splits a line into words; double quotes group a value with spaces (`name:"a b"`), `\\"` is a quote."""
    words: List[str] = []
    word = ""
    quoted = started = False
    i = 0
    while i < len(line):
        c = line[i]
        if quoted and c == "\\" and line[i + 1 : i + 2] == '"':
            word += '"'
            i += 1
        elif c == '"':
            quoted = not quoted
            started = True
        elif not quoted and c.isspace():
            if started:
                words.append(word)
            word = ""
            started = False
        else:
            word += c
            started = True
        i += 1
    if quoted:
        raise ValueError("a quote is not closed")
    if started:
        words.append(word)
    return words


def _read_value(option: dict, text: str, resolve: Optional[Resolver]) -> Any:
    def fail(what: str) -> ValueError:
        return ValueError(f'{option["name"]}: "{text}" is not {what}')

    kind = option["type"]
    if kind == STRING:
        return text
    if kind == INTEGER:
        if not re.fullmatch(r"-?\d+", text):
            raise fail("an integer")
        return int(text)
    if kind == NUMBER:
        try:
            number = float(text)
        except ValueError:
            raise fail("a number") from None
        if not math.isfinite(number):
            raise fail("a number")
        return int(number) if number.is_integer() and re.fullmatch(r"-?\d+", text) else number
    if kind == BOOLEAN:
        if re.fullmatch(r"(?i)true|yes|1", text):
            return True
        if re.fullmatch(r"(?i)false|no|0", text):
            return False
        raise fail("true or false")
    if kind in (USER, CHANNEL, ROLE, MENTIONABLE):
        named = re.fullmatch(r"#(.+)" if kind == CHANNEL else r"@(.+)", text)
        if named and resolve and kind != ROLE:
            return resolve("channel" if kind == CHANNEL else "user", named.group(1))
        mention = re.fullmatch(r"<(?:@!?|#|@&)(\d+)>", text)
        snowflake = mention.group(1) if mention else text
        if not re.fullmatch(r"\d{1,20}", snowflake):
            raise fail(f"a {TYPE_NAMES[kind]} id")
        return snowflake
    raise ValueError(f'{option["name"]}: {TYPE_NAMES.get(kind, f"type {kind}")} options cannot be typed here')


def _names(options: List[dict]) -> str:
    return ", ".join(o["name"] for o in options) if options else "none"


def _read_options(target: dict, words: List[str], autocomplete: bool, resolve: Optional[Resolver]) -> List[dict]:
    declared = target.get("options") or []
    given: Dict[str, tuple] = {}
    for word in words:
        colon = word.find(":")
        if colon <= 0:
            raise ValueError(f'"{word}" is not name:value (options of /{target["name"]}: {_names(declared)})')
        name = word[:colon]
        option = next((o for o in declared if o["name"] == name), None)
        if option is None:
            raise ValueError(f'/{target["name"]} has no option "{name}" (it has: {_names(declared)})')
        if name in given:
            raise ValueError(f'option "{name}" is given twice')
        given[name] = (option, word[colon + 1 :])
    options = []
    for option in declared:
        entry = given.get(option["name"])
        if entry is None:
            if option.get("required") and not autocomplete:
                raise ValueError(f'/{target["name"]} needs option "{option["name"]}"')
            continue
        text = entry[1]
        if autocomplete and text.endswith("?"):
            options.append({"name": option["name"], "type": option["type"], "value": text[:-1], "focused": True})
        else:
            options.append({"name": option["name"], "type": option["type"], "value": _read_value(option, text, resolve)})
    return options


def parse_invocation(
    line: str, commands: List[dict], *, autocomplete: bool = False, resolve: Optional[Resolver] = None
) -> dict:
    """The invocation `data` for `line` among `commands` (as the command index lists them).
    With `autocomplete`, the option marked with a trailing `?` is focused, else the last one given."""
    words = split_words(line.strip())
    if not words or not words[0].startswith("/"):
        raise ValueError("a command line starts with /name")
    name = words[0][1:]
    command = next((c for c in commands if c["name"] == name and c.get("type", 1) == 1), None)
    if command is None:
        known = [f'/{c["name"]}' for c in commands if c.get("type", 1) == 1]
        raise LookupError(f"no slash command /{name} here ({', '.join(known) if known else 'none registered'})")
    rest = words[1:]
    if autocomplete and not any(":" in w and w.endswith("?") for w in rest):
        last = max((i for i, w in enumerate(rest) if ":" in w), default=-1)
        if last >= 0:
            rest = [f"{w}?" if i == last else w for i, w in enumerate(rest)]
    subs = [o for o in command.get("options") or [] if o["type"] in (SUB_COMMAND, SUB_COMMAND_GROUP)]
    if subs:
        sub1 = next((o for o in subs if rest and o["name"] == rest[0]), None)
        if sub1 is None:
            raise ValueError(f"/{name} needs a subcommand: {_names(subs)}")
        rest = rest[1:]
        if sub1["type"] == SUB_COMMAND_GROUP:
            inner_subs = sub1.get("options") or []
            sub = next((o for o in inner_subs if rest and o["name"] == rest[0]), None)
            if sub is None:
                raise ValueError(f"/{name} {sub1['name']} needs a subcommand: {_names(inner_subs)}")
            inner = _read_options(sub, rest[1:], autocomplete, resolve)
            options = [{"name": sub1["name"], "type": sub1["type"], "options": [{"name": sub["name"], "type": sub["type"], "options": inner}]}]
        else:
            options = [{"name": sub1["name"], "type": sub1["type"], "options": _read_options(sub1, rest, autocomplete, resolve)}]
    else:
        options = _read_options(command, rest, autocomplete, resolve)
    if autocomplete and '"focused": true' not in json.dumps(options):
        raise ValueError("an autocomplete needs an option to complete (city:Par, or city:Par? to choose one)")
    data = {"id": command["id"], "name": command["name"], "type": 1, "version": command["version"], "options": options}
    if command.get("guild_id"):
        data["guild_id"] = command["guild_id"]
    return data
