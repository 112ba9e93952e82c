"""click reads the commons-cli spellings the Java tool takes, and refuses what commons-cli refuses.

``-t T``, ``-tT``, ``-t=T``, ``--topic=T``, ``-topic T`` (a long name after one dash), ``-bn NAME``
(a short name of two letters) and an unambiguous prefix of a long name (``--top T``) all read as the
option; a prefix of two long names (``--h``: ``--hasUnitSub`` and ``--help``) is a usage error, exit 2,
and nothing is sent. Checked against our real name server and broker, and on the parsed parameters.
"""

from __future__ import annotations

from typing import Any

import click
import pytest
from pytest_mock import MockerFixture

from mqadmin.cli.app import load_command
from mqadmin.cli.clickcommand import JavaCommand
from mqadmin.cli.registry import COMMANDS, lookup
from tests.cli_harness import Result, run_mqadmin
from tests.conftest import BrokerFactory
from tests.servers import NameServerProcess


def command(name: str) -> JavaCommand:
    entry = lookup(name)
    assert entry is not None
    cmd = load_command(entry)
    assert isinstance(cmd, JavaCommand)
    return cmd


def parsed(name: str, args: list[str], *, checks: bool = True) -> dict[str, Any]:
    """The parameters the click command of ``name`` reads from ``args`` (without ``checks``: as
    completion parses, required options and option groups not enforced)."""
    return dict(command(name).make_context(name, list(args), resilient_parsing=not checks).params)


@pytest.mark.parametrize(
    "args",
    [["-t", "T"], ["-tT"], ["-t=T"], ["--topic", "T"], ["--topic=T"], ["-topic", "T"], ["--top", "T"]],
    ids=" ".join,
)
def test_spellings_of_one_option(args: list[str]) -> None:
    assert parsed("topicRoute", args)["topic"] == "T"


def test_spellings_of_values_and_common_options() -> None:
    got = parsed("topicRoute", ["-tT", "-n=a:1;b:2", "--output=json", "--time", "2.5", "--no-tls", "-l"])
    assert (got["topic"], got["namesrv"], got["output"], got["timeout"], got["tls"]) == (
        "T",
        "a:1;b:2",
        "json",
        2.5,
        False,
    )
    assert got["list_format"] is True


@pytest.mark.parametrize("name", sorted(c.name for c in COMMANDS if c.java))
def test_a_short_option_reads_as_its_long_name(name: str) -> None:
    """Every short option of every command, alone, glued with ``=`` and beside the others, reads as
    its ``--`` long name does (the parse step hands click the long name; this holds the two to one
    answer, flags and options with values alike)."""
    cmd = command(name)
    shorts: list[tuple[list[str], list[str]]] = []
    for p in cmd.params:  # not get_params: a bare click.Context would cache a help option without -h
        if not isinstance(p, click.Option) or p.hidden:
            continue
        short = next((n for n in p.opts if len(n) == 2), None)
        long_name = next((n for n in p.opts if n.startswith("--")), None)
        if short is None or long_name is None:
            continue
        value = [] if p.is_flag else ["v1"]
        shorts.append(([short, *value], [long_name, *value]))
        if not p.is_flag:
            glued = parsed(name, [f"{short}=v2"], checks=False)
            assert glued == parsed(name, [long_name, "v2"], checks=False), short
    assert shorts, name
    for as_short, as_long in shorts:
        assert parsed(name, as_short, checks=False) == parsed(name, as_long, checks=False), as_short
    every_short = [w for s, _ in shorts for w in s]
    every_long = [w for _, long_words in shorts for w in long_words]
    assert parsed(name, every_short, checks=False) == parsed(name, every_long, checks=False)


HOSTILE_VALUES = ["", "\x00", "a\x00b", "\udc80", "--", "-x", "--topic", "../../etc", "9" * 400, "-t=T"]


@pytest.mark.parametrize("value", HOSTILE_VALUES, ids=ascii)
def test_a_hostile_value_reads_the_same_after_the_short_and_the_long_name(value: str) -> None:
    """What follows a short option is its value, whatever it holds, exactly as after the long name;
    the parse step renames the option and leaves the value alone (the checks of names come later)."""
    as_short = parsed("topicRoute", ["-t", value, "-n", "127.0.0.1:9876"], checks=False)
    as_long = parsed("topicRoute", ["--topic", value, "-n", "127.0.0.1:9876"], checks=False)
    assert as_short == as_long
    assert as_short["topic"] == value


def test_short_options_do_not_make_click_suggest_spellings(mocker: MockerFixture) -> None:
    """click tries a word as a long name first and, on a miss, builds an error with spelling
    suggestions before trying it as a short one; a plain ``-n NS -t T`` builds none. A short option
    click does not know still does, and is refused."""
    made = mocker.spy(click.exceptions.NoSuchOption, "__init__")
    assert parsed("topicRoute", ["-n", "127.0.0.1:9876", "-t", "T", "-l"])["topic"] == "T"
    assert made.call_count == 0
    with pytest.raises(click.NoSuchOption):
        parsed("topicRoute", ["-t", "T", "-x", "1"])


def test_a_short_option_without_its_value_is_named_as_typed() -> None:
    with pytest.raises(click.BadOptionUsage, match="Option '-t' requires an argument"):
        parsed("topicRoute", ["-n", "127.0.0.1:9876", "-t"])


def test_a_two_letter_short_name() -> None:
    got = parsed("electMaster", ["-a", "c:9878", "-bn", "broker-a", "-b", "1", "-c", "C"])
    assert got["broker_name"] == "broker-a"
    assert got["controller_address"] == "c:9878"


@pytest.mark.parametrize(
    ("name", "args", "could"),
    [
        ("topicRoute", ["--t", "T"], "(could be: 'timeout', 'tls', 'topic')"),
        ("updateTopic", ["-c", "C", "-t", "T", "--h", "true"], "(could be: 'hasUnitSub', 'help')"),
    ],
)
def test_an_ambiguous_prefix_is_refused(name: str, args: list[str], could: str) -> None:
    with pytest.raises(click.UsageError, match="Ambiguous option") as ei:
        parsed(name, args)
    assert could in ei.value.format_message()


def topic_route(env: dict[str, str], ns: str, topic: str) -> Result:
    return run_mqadmin(["topicRoute", "-n", ns, "-t", topic], env)


def test_an_ambiguous_prefix_sends_nothing(
    base_env: dict[str, str], namesrv: NameServerProcess, broker_factory: BrokerFactory
) -> None:
    broker_factory.start()
    ns = namesrv.addr
    update = ["updateTopic", "-n", ns, "-c", "DefaultCluster"]

    # --h begins --hasUnitSub and --help: refused as commons-cli refuses it, the topic not created
    r = run_mqadmin([*update, "-t", "AmbiguousH", "--h", "true"], base_env)
    assert r.code == 2, r
    assert "Ambiguous option: '--h'" in r.err and "hasUnitSub" in r.err and "help" in r.err
    assert r.out == ""
    assert topic_route(base_env, ns, "AmbiguousH").code == 7

    # --hel is --help alone: the help is printed, nothing is created
    r = run_mqadmin([*update, "-t", "HelpPrefix", "--hel"], base_env)
    assert r.code == 0, r
    assert r.out.startswith("usage: mqadmin updateTopic")
    assert topic_route(base_env, ns, "HelpPrefix").code == 7

    # an unambiguous prefix and glued values: the topic is created with them
    r = run_mqadmin([*update, "-tPrefixed", "-r=2", "--writeQ", "2", "--hasU", "true"], base_env)
    assert r.code == 0, r
    route = topic_route(base_env, ns, "Prefixed")
    assert route.code == 0 and '"readQueueNums":2' in route.out.replace(" ", ""), route
