"""The package's layers hold (the contracts of pyproject.toml's [tool.importlinter], checked by import-linter): the
command line and the dashboard above the statistics, scoring, loading and the store, never the other way round,
and the dashboard's pages reading through dashboard.data alone. Run on the package as it is installed, assembled
from the repository's folders (etl/ is accuracy_db.etl, and so on), since import-linter reads one folder a
package."""

from __future__ import annotations

import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
CONFIG = REPO / "pyproject.toml"


def assemble(out: Path) -> None:
    """The package's modules where an installed wheel puts them, from [tool.setuptools]'s packages and folders."""
    setuptools = tomllib.loads(CONFIG.read_text(encoding="utf-8"))["tool"]["setuptools"]
    folders = setuptools["package-dir"]
    for package in setuptools["packages"]:
        parts = package.split(".")
        folder = folders.get(package) or "/".join([folders[parts[0]], *parts[1:]])
        target = out.joinpath(*parts)
        target.mkdir(parents=True, exist_ok=True)
        for module in (REPO / folder).glob("*.py"):
            shutil.copy(module, target / module.name)


def lint_imports(tree: Path, config: Path = CONFIG) -> subprocess.CompletedProcess:
    return subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports"), str(config)],
        capture_output=True,
        text=True,
        cwd=tree,  # not the repository, whose accuracy_db/ folder lacks etl/ and dashboard/
        env={"PYTHONPATH": str(tree), "PATH": "/usr/bin:/bin"},
    )


def test_the_layers_and_the_dashboard_s_one_way_in_hold(tmp_path):
    assemble(tmp_path)
    result = lint_imports(tmp_path)
    assert result.returncode == 0, result.stdout[-4000:] + result.stderr[-2000:]
    assert "2 kept, 0 broken" in result.stdout


def test_an_import_against_the_layers_breaks_the_contract(tmp_path):
    """The check can fail: the store importing the command line is refused."""
    assemble(tmp_path)
    store = tmp_path / "accuracy_db" / "store" / "publish.py"
    store.write_text(store.read_text(encoding="utf-8") + "\nfrom accuracy_db.cli import render  # noqa\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1
    assert "accuracy_db.store.publish -> accuracy_db.cli.render" in result.stdout


def test_the_statistics_do_not_import_the_metrics_validity(tmp_path):
    """metric_validity is a layer above stats (it resamples with stats.resampling): a statistics module importing
    it is refused, as is a dashboard page reading it other than through dashboard.data."""
    assemble(tmp_path)
    validity = tmp_path / "accuracy_db" / "stats" / "validity.py"
    validity.write_text(
        validity.read_text(encoding="utf-8") + "\nfrom accuracy_db.metric_validity import table  # noqa\n"
    )
    page = tmp_path / "accuracy_db" / "dashboard" / "app_pages" / "metrics.py"
    page.write_text(page.read_text(encoding="utf-8") + "\nfrom accuracy_db.metric_validity import table  # noqa\n")
    result = lint_imports(tmp_path)
    assert result.returncode == 1
    assert "accuracy_db.stats.validity -> accuracy_db.metric_validity.table" in result.stdout
    assert "accuracy_db.dashboard.app_pages.metrics -> accuracy_db.metric_validity.table" in result.stdout
