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

from mqadmin.cli.app import load_command
from mqadmin.cli.clickcommand import JavaCommand
from mqadmin.cli.registry import lookup
from tests.cli_harness import Result, run_mqadmin
from tests.conftest import BrokerFactory
from tests.servers import NameServerProcess


def parsed(name: str, args: list[str]) -> dict[str, Any]:
    """The parameters the click command of ``name`` reads from ``args``."""
    entry = lookup(name)
    assert entry is not None
    cmd = load_command(entry)
    assert isinstance(cmd, JavaCommand)
    return dict(cmd.make_context(name, list(args)).params)


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
