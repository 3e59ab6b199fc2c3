"""constraints.txt pins what make install-dev installs for the tests: every dependency the package and its extras
name, at a version its range allows, so that a release of one changes nothing until it is written there."""

from __future__ import annotations

import tomllib

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from shared_data import REPO


def pinned() -> dict[str, str]:
    lines = (REPO / "constraints.txt").read_text(encoding="utf-8").splitlines()
    pins = [line.split("==") for line in lines if line and not line.startswith("#")]
    return {canonicalize_name(name): version for name, version in pins}


def test_every_dependency_of_the_package_and_its_extras_is_pinned_within_its_range():
    project = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    named = [*project["dependencies"], *(r for extra in project["optional-dependencies"].values() for r in extra)]
    requirements = [Requirement(text) for text in named]
    pins = pinned()
    unpinned = sorted({r.name for r in requirements if canonicalize_name(r.name) not in pins})
    outside = sorted(
        f"{r.name}=={pins[canonicalize_name(r.name)]} ({r.specifier})"
        for r in requirements
        if canonicalize_name(r.name) in pins and not r.specifier.contains(pins[canonicalize_name(r.name)])
    )
    assert (unpinned, outside) == ([], [])
