"""The kit's parts that need no stack: locating it, reading command lines."""

import json
import os

import pytest

from acs_testkit import find_data_dir, locate_stack, parse_invocation, split_words


def started_checkout(directory, api_url="http://127.0.0.1:9999"):
    data = os.path.join(directory, ".data")
    os.makedirs(data)
    with open(os.path.join(data, "stack.json"), "w") as file:
        json.dump({"apiUrl": api_url}, file)
    with open(os.path.join(data, "admin-token"), "w") as file:
        file.write("secret\n")
    return data


def test_env_first(tmp_path):
    home = str(tmp_path / "home")
    located = locate_stack({"ACS_URL": "http://acs.test:8080/", "ACS_ADMIN_TOKEN": "t"}, cwd=str(tmp_path), home=home)
    assert (located.api_url, located.admin_token, located.data_dir) == ("http://acs.test:8080", "t", None)
    assert locate_stack({"ACS_URL": "http://a", "ADMIN_TOKEN": "u"}, cwd=str(tmp_path), home=home).admin_token == "u"


def test_data_dir_above_cwd_then_home_pointer(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    checkout = tmp_path / "checkout"
    data = started_checkout(str(checkout))
    inside = checkout / "examples" / "bot"
    inside.mkdir(parents=True)
    assert locate_stack({}, cwd=str(inside), home=str(home)).api_url == "http://127.0.0.1:9999"
    assert locate_stack({}, cwd=str(inside), home=str(home)).admin_token == "secret"
    elsewhere = tmp_path / "bot"
    elsewhere.mkdir()
    with pytest.raises(LookupError, match="no running ACS found"):
        locate_stack({}, cwd=str(elsewhere), home=str(home))
    (home / ".acs").mkdir()
    (home / ".acs" / "stack.json").write_text(json.dumps({"dataDir": data}))
    assert find_data_dir({}, cwd=str(elsewhere), home=str(home)) == data
    # ACS_URL alone: the token comes from the running stack's .data.
    assert locate_stack({"ACS_URL": "http://other"}, cwd=str(elsewhere), home=str(home)).api_url == "http://other"


COMMANDS = [
    {"id": "10", "name": "ping", "type": 1, "version": "11", "options": [{"name": "text", "type": 3}]},
    {
        "id": "30",
        "name": "settings",
        "type": 1,
        "version": "31",
        "options": [
            {"name": "color", "type": 2, "options": [{"name": "set", "type": 1, "options": [{"name": "value", "type": 3, "required": True}]}]},
            {"name": "reset", "type": 1},
        ],
    },
]


def test_parse_invocation():
    assert split_words('a name:"b c" d:"x\\"y"') == ["a", "name:b c", 'd:x"y']
    assert parse_invocation("/ping text:hi", COMMANDS)["options"] == [{"name": "text", "type": 3, "value": "hi"}]
    assert parse_invocation("/settings color set value:dark", COMMANDS)["options"][0]["options"][0]["options"] == [
        {"name": "value", "type": 3, "value": "dark"}
    ]
    with pytest.raises(LookupError, match=r"no slash command /nope here \(/ping, /settings\)"):
        parse_invocation("/nope", COMMANDS)
    with pytest.raises(ValueError, match="needs a subcommand: color, reset"):
        parse_invocation("/settings", COMMANDS)
    assert parse_invocation("/ping text:he", COMMANDS, autocomplete=True)["options"] == [
        {"name": "text", "type": 3, "value": "he", "focused": True}
    ]
