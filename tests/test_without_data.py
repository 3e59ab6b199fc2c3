"""The tests that read no shared-task data run without it; asked for one that reads it, pytest stops before it
starts, naming where the data should be and which test modules need it."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent


def pytest_without_data(tmp_path: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *args],
        capture_output=True,
        text=True,
        cwd=REPO,
        env={**os.environ, "ACCURACY_DB_TEST_SHARED": str(tmp_path)},  # an empty folder: no data there
        timeout=600,
    )


def test_the_property_tests_of_the_spans_run_without_the_data(tmp_path):
    result = pytest_without_data(tmp_path, "tests/test_char_spans.py")
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert " passed" in result.stdout and "error" not in result.stdout.lower()


def test_a_test_that_reads_the_data_stops_the_run_saying_where_it_should_be(tmp_path):
    result = pytest_without_data(tmp_path, "tests/test_char_spans.py", "tests/test_parity.py")
    assert result.returncode == 4  # pytest's usage error: nothing ran
    assert f"there is none at {tmp_path / 'accuracy-shared-task'}: test_parity" in result.stderr
