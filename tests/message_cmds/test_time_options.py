"""The message commands' time options take what every time option takes (mqadmin.cli.timeargs):
``now`` included, which consumeMessage does not count as a time in the future."""

from __future__ import annotations

from mqadmin.cli.timeargs import TIME_FORMS
from tests.message_cmds.conftest import TOPIC, Sent
from tests.message_cmds.support import Cluster


def test_print_up_to_now_shows_what_was_sent(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("printMsg", "-t", TOPIC, "-b", "0", "-e", "now", "-n", cluster.ns.addr)
    assert (r.code, r.err) == (0, ""), r.err
    assert "hello from c++" in r.out
    later = cluster.mqadmin("printMsg", "-t", TOPIC, "-b", "2999-02-30#00:00:00:000", "-n", cluster.ns.addr)
    assert (later.code, later.err) == (0, ""), later.err  # rolled over into March, as Java reads it
    assert "hello from c++" not in later.out


def test_consume_message_up_to_now_is_not_in_the_future(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("consumeMessage", "-t", TOPIC, "-s", "now", "-e", "now", "-n", cluster.ns.addr)
    assert r.code == 0, r.err
    assert "before now" not in r.err + r.out


def test_a_bad_time_names_what_is_taken(cluster: Cluster, state: Sent) -> None:
    r = cluster.mqadmin("consumeMessage", "-t", TOPIC, "-e", "NaN", "-n", cluster.ns.addr)
    assert (r.code, r.out) == (2, "")
    assert r.err.strip().endswith(f"-e takes {TIME_FORMS}, not 'NaN'"), r.err
