"""`make test` on a fresh machine: Chromium (for the dashboard's browser test) is installed first when it is missing,
exactly as .ci/install-chromium says, or, without root, the command to run is printed and the suite never starts.

apt-get and id are stand-ins on PATH that record what they were asked, so nothing is installed."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTALL = "apt-get update -q && DEBIAN_FRONTEND=noninteractive apt-get install -y -q --no-install-recommends chromium"


@pytest.fixture
def fake_bin(tmp_path):
    """A folder of stand-ins: apt-get appends its arguments and DEBIAN_FRONTEND to a log; id answers as uid."""
    folder = tmp_path / "bin"
    folder.mkdir()
    log = tmp_path / "apt-get.log"
    (folder / "apt-get").write_text(f'#!/bin/sh\necho "${{DEBIAN_FRONTEND:-}}|$*" >> {log}\n')
    (folder / "apt-get").chmod(0o755)
    return folder, log


def run_make(fake_bin, uid: int, chromium: Path) -> subprocess.CompletedProcess:
    folder, _ = fake_bin
    (folder / "id").write_text(f"#!/bin/sh\necho {uid}\n")
    (folder / "id").chmod(0o755)
    env = {**os.environ, "PATH": f"{folder}:{os.environ['PATH']}", "CHROMIUM": str(chromium)}
    env.pop("DEBIAN_FRONTEND", None)
    return subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "chromium"], env=env, capture_output=True, text=True
    )


def test_a_missing_chromium_is_installed_as_ci_does_when_root(fake_bin, tmp_path):
    result = run_make(fake_bin, 0, tmp_path / "no-chromium")
    assert result.returncode == 0, result.stderr
    assert fake_bin[1].read_text().splitlines() == [
        "|update -q",
        "noninteractive|install -y -q --no-install-recommends chromium",
    ]


def test_without_root_it_stops_with_the_command_to_run(fake_bin, tmp_path):
    missing = tmp_path / "no-chromium"
    result = run_make(fake_bin, 1000, missing)
    assert result.returncode != 0
    assert result.stderr.splitlines()[0] == (
        f"error: the tests need Chromium at {missing}, which is missing; install it as root (Debian): {INSTALL}"
    )
    assert not fake_bin[1].exists()


def test_an_installed_chromium_is_left_alone(fake_bin, tmp_path):
    chromium = tmp_path / "chromium"
    chromium.write_text("#!/bin/sh\n")
    chromium.chmod(0o755)
    result = run_make(fake_bin, 1000, chromium)
    assert result.returncode == 0, result.stderr
    assert not fake_bin[1].exists()


def test_make_test_and_ci_go_through_the_one_install_step():
    dry_run = subprocess.run(
        ["make", "--no-print-directory", "-C", str(ROOT), "-n", "-W", "pyproject.toml", "test"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.splitlines()
    suite = next(i for i, line in enumerate(dry_run) if line.startswith(".venv/bin/python -m pytest "))
    assert dry_run.index("sh .ci/install-chromium") < suite
    ci = (ROOT / ".ci" / "run").read_text()
    assert "make test" in ci and "apt-get" not in ci
