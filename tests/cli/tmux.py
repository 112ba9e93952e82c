"""A shell in a detached tmux session: keys sent with ``send-keys``, the screen read with
``capture-pane`` (completion and prompt tests in a real terminal)."""

from __future__ import annotations

import shutil
import subprocess
import time
import uuid

import pytest

PROMPT = "mq-test> "
"""The prompt the tests' shells print (tmux drops its trailing blank when read back)."""


class Tmux:
    """One shell in a detached tmux session on a private server."""

    def __init__(self, shell: list[str], env: dict[str, str]) -> None:
        if shutil.which("tmux") is None:
            pytest.skip("tmux is not installed")
        self.sock = f"mqadmin-completion-{uuid.uuid4().hex[:8]}"
        self.env = env
        self._tmux("-f", "/dev/null", "new-session", "-d", "-s", "t", "-x", "220", "-y", "40", *shell)

    def _tmux(self, *args: str) -> str:
        p = subprocess.run(
            ["tmux", "-L", self.sock, *args], env=self.env, capture_output=True, text=True, timeout=10
        )
        assert p.returncode == 0, p.stderr
        return p.stdout

    def send(self, *keys: str) -> None:
        self._tmux("send-keys", "-t", "t", *keys)

    def screen(self) -> str:
        return self._tmux("capture-pane", "-p", "-t", "t")

    def line(self) -> str:
        """The last prompt line on the screen, without the prompt (tmux drops trailing blanks)."""
        mark = PROMPT.strip()
        lines = [ln for ln in self.screen().splitlines() if ln.startswith(mark)]
        return lines[-1][len(mark) :].strip() if lines else ""

    def wait_prompt(self, timeout: float = 10) -> None:
        deadline = time.monotonic() + timeout
        while PROMPT.strip() not in self.screen():
            assert time.monotonic() < deadline, f"no prompt:\n{self.screen()}"
            time.sleep(0.1)

    def complete(self, typed: str, expected: str, timeout: float = 8) -> None:
        """Type ``typed``, press TAB, and see the line become ``expected``; then clear the line."""
        self.send("-l", typed)
        self.send("Tab")
        deadline = time.monotonic() + timeout
        try:
            while self.line() != expected:
                if time.monotonic() > deadline:
                    raise AssertionError(f"after TAB: {self.line()!r}, not {expected!r}\n{self.screen()}")
                time.sleep(0.1)
        finally:
            self.send("C-u")  # kill the line (bash, zsh, fish alike)
            while self.line():
                assert time.monotonic() < deadline + 5, self.screen()
                time.sleep(0.05)

    def close(self) -> None:
        kill = ["tmux", "-L", self.sock, "kill-server"]
        subprocess.run(kill, env=self.env, capture_output=True, timeout=10)
