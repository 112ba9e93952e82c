"""Completion in a real shell: the generated script sourced in bash inside tmux, TAB sent with
``send-keys``, the command line read back with ``capture-pane``; topic, group and cluster names come
live from our name server. zsh and fish are tested the same way where they are installed."""

from __future__ import annotations

import shutil
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from mqadmin.cli.gen_completions import FILES, script
from tests.broker.peers import create_topic
from tests.cli.peers import SilentPeer
from tests.cli.tmux import PROMPT, Tmux
from tests.cli_harness import MQADMIN, clean_env
from tests.servers import Cluster

TOPIC = "OrdersLiveTopic"
GROUP = "BillingLiveGroup"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    c = Cluster(tmp_path_factory.mktemp("completion"))
    try:
        for t in (TOPIC, f"%RETRY%{GROUP}"):
            assert create_topic(c.broker.addr, t, queues=1).code == 0
        yield c
    finally:
        c.stop()


@pytest.fixture(scope="module")
def shell_env(cluster: Cluster, tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("shell")
    env = clean_env(root / "home", root / "config")
    env["PATH"] = f"{Path(MQADMIN).parent}:{env.get('PATH', '/usr/bin:/bin')}"
    env["NAMESRV_ADDR"] = cluster.ns.addr
    env["HOME"] = str(root)
    return env


@pytest.fixture
def bash(shell_env: dict[str, str], tmp_path: Path) -> Iterator[Tmux]:
    completions = tmp_path / "mqadmin.bash"
    completions.write_text(script("bash"))
    rc = tmp_path / "bashrc"
    rc.write_text(f"PS1='{PROMPT}'\nsource {completions}\n")
    t = Tmux(["bash", "--noprofile", "--rcfile", str(rc), "-i"], shell_env)
    try:
        t.wait_prompt()
        yield t
    finally:
        t.close()


def test_bash_completes_commands_options_and_choices(bash: Tmux) -> None:
    bash.complete("mqadmin clusterLi", "mqadmin clusterList")
    bash.complete("mqadmin topicRoute --nam", "mqadmin topicRoute --namesrvAddr")
    bash.complete("mqadmin clusterList --output ta", "mqadmin clusterList --output table")  # was missing
    bash.complete("mqadmin resetOffsetByTime --dry", "mqadmin resetOffsetByTime --dry-run")
    bash.complete("mqadmin consumerProgress --max-l", "mqadmin consumerProgress --max-lag")
    bash.complete("mqadmin help brokerSt", "mqadmin help brokerStatus")
    bash.complete("mqadmin context li", "mqadmin context list")


def test_bash_completes_live_names(bash: Tmux, cluster: Cluster) -> None:
    bash.complete("mqadmin topicRoute -t OrdersLi", f"mqadmin topicRoute -t {TOPIC}")
    bash.complete("mqadmin consumerProgress -g BillingLi", f"mqadmin consumerProgress -g {GROUP}")
    bash.complete("mqadmin topicStatus -t X -c DefaultClu", "mqadmin topicStatus -t X -c DefaultCluster")
    # -n on the line wins over NAMESRV_ADDR, as for the command itself
    bash.complete(
        f"mqadmin topicStatus -n {cluster.ns.addr} -t OrdersLi",
        f"mqadmin topicStatus -n {cluster.ns.addr} -t {TOPIC}",
    )


def complete_words(words: str, env: dict[str, str]) -> tuple[list[str], float]:
    """What ``mqadmin`` answers the bash script for ``words`` (TAB at the end), and how long it took."""
    cword = len(words.split()) - (0 if words.endswith(" ") else 1)
    started = time.monotonic()
    p = subprocess.run(
        [MQADMIN],
        env={**env, "COMP_WORDS": words, "COMP_CWORD": str(cword), "_MQADMIN_COMPLETE": "bash_complete"},
        capture_output=True,
        text=True,
        timeout=20,
    )
    took = time.monotonic() - started
    assert p.returncode == 0, p.stderr
    return [line.split(",", 1)[1] for line in p.stdout.splitlines() if line], took


def test_live_names_give_up_after_the_budget(shell_env: dict[str, str]) -> None:
    silent = SilentPeer()  # a name server that never answers
    try:
        _, baseline = complete_words("mqadmin topicRoute --to", shell_env)
        words, took = complete_words(f"mqadmin topicRoute -n {silent.addr} -t Or", shell_env)
        assert words == [] and silent.requests  # asked, no answer, no suggestion
        assert took < baseline + 0.3 + 0.5  # the 300 ms budget (and slack for a loaded machine)
    finally:
        silent.stop()
    found, _ = complete_words("mqadmin topicRoute -t Or", shell_env)
    assert found == [TOPIC]  # retry and DLQ topics are left out unless asked for with '%'
    found, _ = complete_words("mqadmin topicRoute -t %RE", shell_env)
    assert found == [f"%RETRY%{GROUP}"]
    options, _ = complete_words("mqadmin topicRoute -", shell_env)
    assert "-t" in options and "--topic" in options and "-topic" not in options


def test_context_names_complete(shell_env: dict[str, str]) -> None:
    add = subprocess.run(
        [MQADMIN, "context", "add", "prod-east", "-n", "127.0.0.1:1"], env=shell_env, capture_output=True
    )
    assert add.returncode == 0, add.stderr
    typed = ("mqadmin context use prod", "mqadmin context remove pro", "mqadmin clusterList --context pr")
    for words in typed:
        assert complete_words(words, shell_env)[0] == ["prod-east"], words


def test_generated_scripts_forward_to_mqadmin() -> None:
    assert set(FILES) == {"bash", "zsh", "fish"}
    for shell in FILES:
        text = script(shell)
        assert "_MQADMIN_COMPLETE" in text and "clusterList" not in text  # nothing to go stale
    assert script("zsh").startswith("#compdef mqadmin\n")
    subprocess.run(["bash", "-n"], input=script("bash"), text=True, check=True)


@pytest.mark.parametrize("shell", ["zsh", "fish"])
def test_other_shells(shell: str, shell_env: dict[str, str], tmp_path: Path) -> None:
    # ./dev test installs it from Debian where it is missing; without it this test cannot run
    assert shutil.which(shell) is not None, f"{shell} is not installed: apt-get install {shell}"
    path = tmp_path / Path(FILES[shell]).name
    path.write_text(script(shell))
    if shell == "zsh":
        rc = f"PS1='{PROMPT}'\nautoload -U compinit; compinit -u\nsource {path}\n"
        (tmp_path / ".zshrc").write_text(rc)
        t = Tmux(["zsh", "-i"], {**shell_env, "ZDOTDIR": str(tmp_path)})
    else:
        conf = tmp_path / "fish"
        conf.mkdir()
        (conf / "config.fish").write_text(f"function fish_prompt; echo -n '{PROMPT}'; end\nsource {path}\n")
        t = Tmux(["fish", "-i"], {**shell_env, "XDG_CONFIG_HOME": str(tmp_path)})
    try:
        t.wait_prompt()
        t.complete("mqadmin clusterLi", "mqadmin clusterList")
        t.complete("mqadmin topicRoute -t OrdersLi", f"mqadmin topicRoute -t {TOPIC}")
    finally:
        t.close()
