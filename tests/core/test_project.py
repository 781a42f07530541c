"""Project contracts: CI runs the README's test command; the layers only depend downward."""

from __future__ import annotations

import re

from importlinter.cli import lint_imports

from paths import ROOT


def _ci_command() -> str:
    lines = (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
    commands = [line for line in lines if line.startswith("python3 ")]
    assert len(commands) == 1, "the CI script runs exactly one command"
    return commands[0]


def test_ci_runs_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    quick_start = readme.split("## Quick start", 1)[1].split("\n## ", 1)[0]
    commands = re.findall(r"^python3 .*$", quick_start, flags=re.MULTILINE)
    assert len(commands) == 2, "the quick start gives exactly two commands"
    assert commands[1] == _ci_command()
    assert "kingdomkit serve" in commands[0]


def test_layers_only_depend_downward() -> None:
    assert lint_imports(config_filename=str(ROOT / "pyproject.toml")) == 0
