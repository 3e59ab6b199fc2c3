"""constraints.txt pins what make install-dev, make install and make demo install: every dependency the package and
its extras name, at a version its range allows, so that a release of one changes nothing until it is written there;
and the ranges a wheel's install takes stop below the next major release of what the code uses the inside of."""

from __future__ import annotations

import re
import subprocess
import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version
from shared_data import REPO

PACKAGE = ("accuracy_db", "etl", "dashboard")  # the folders of the installed package (pyproject.toml's package-dir)


def project() -> dict:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def pinned() -> dict[str, str]:
    lines = (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pins = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {canonicalize_name(name): version for name, version in pins}


def test_every_dependency_of_the_package_and_its_extras_is_pinned_within_its_range():
    named = [*project()["dependencies"], *(r for extra in project()["optional-dependencies"].values() for r in extra)]
    requirements = [Requirement(text) for text in named]
    pins = pinned()
    unpinned = sorted({r.name for r in requirements if canonicalize_name(r.name) not in pins})
    outside = sorted(
        f"{r.name}=={pins[canonicalize_name(r.name)]} ({r.specifier})"
        for r in requirements
        if canonicalize_name(r.name) in pins and not r.specifier.contains(pins[canonicalize_name(r.name)])
    )
    assert (unpinned, outside) == ([], [])


# The packages the code relies on the inside of (issue 52), with where: a major release may change those.
INTERNALS = {
    "duckdb": "the database file's format (2.x files are not readable by 1.x)",
    "sqlglot": "about 30 sqlglot.exp classes named by the guard, portable.py and export_postgres.py",
    "streamlit": "streamlit.web.cli (dashboard/server.py)",
}


def test_what_the_code_uses_the_inside_of_is_bounded_below_its_next_major_release():
    dependencies = [Requirement(text) for text in project()["dependencies"]]
    ranges = {canonicalize_name(r.name): r.specifier for r in dependencies}
    pins = pinned()
    for name in INTERNALS:
        major = Version(pins[name]).major
        assert ranges[name].contains(pins[name]), name  # the tested version is allowed
        assert not ranges[name].contains(str(major + 1), prereleases=True), f"{name}: no bound below {major + 1}"
        assert not ranges[name].contains(f"{major + 1}.0.0rc1", prereleases=True), name
    sources = [path.read_text(encoding="utf-8") for folder in PACKAGE for path in (REPO / folder).rglob("*.py")]
    for name in INTERNALS:  # each still imported: the list is not stale
        assert any(re.search(rf"^\s*(from|import) {name}\b", text, re.MULTILINE) for text in sources), name


def test_make_install_takes_the_tested_versions_as_make_install_dev_does(tmp_path):
    """make install (and so make demo) installs with constraints.txt, as a fresh clone does: its commands, as make
    would run them in a new virtual environment."""
    for target in ("install", "demo", "install-dev"):
        commands = subprocess.run(
            ["make", "-n", target, f"VENV={tmp_path / 'venv'}"], cwd=REPO, capture_output=True, text=True, check=True
        ).stdout.splitlines()
        installs = [line for line in commands if "uv pip install" in line and "--no-deps" not in line]
        assert installs and all(line.endswith(" -c constraints.txt") for line in installs), (target, installs)
        assert " -e . -c constraints.txt" in installs[0], (target, installs)
