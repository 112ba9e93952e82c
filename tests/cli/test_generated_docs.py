"""The committed completions and man page are what the command definitions generate now."""

from __future__ import annotations

import subprocess

from mqadmin.cli.gen_docs import ROOT, generated_files, stale_files


def test_committed_files_are_current() -> None:
    stale = stale_files()
    assert stale == [], f"out of date: {stale}; run: python -m mqadmin.cli.gen_docs"


def test_every_command_and_option_is_in_the_completions() -> None:
    from mqadmin.cli.docmodel import load_specs

    files = generated_files()
    for spec in load_specs():
        for text in (
            files["completions/mqadmin.bash"],
            files["completions/_mqadmin"],
            files["completions/mqadmin.fish"],
        ):
            assert spec.name in text
        for opt in spec.options:
            for name in opt.longs:
                if " " in name:  # Java names like "--print msg" cannot be typed as one word
                    assert f"'{name}'" not in files["completions/mqadmin.bash"]
                    continue
                assert name in files["completions/mqadmin.bash"]
                assert name in files["completions/_mqadmin"]
                assert f"-l {name[2:]}" in files["completions/mqadmin.fish"]
        assert f"\\fB{spec.name}\\fR" in files["man/mqadmin.1"]


def test_bash_script_parses() -> None:
    subprocess.run(["bash", "-n", str(ROOT / "completions" / "mqadmin.bash")], check=True)


def test_man_page_has_the_sections() -> None:
    text = generated_files()["man/mqadmin.1"]
    for section in (
        "NAME",
        "SYNOPSIS",
        "COMMANDS",
        "OPTIONS",
        "CONTEXTS",
        "EXIT STATUS",
        "ENVIRONMENT",
        "EXAMPLES",
    ):
        assert f".SH {section}" in text
    for code in ("0", "2", "3", "4", "5", "6"):
        assert f".TP\n\\fB{code}\\fR" in text
