"""Reading input files: the bytes are the file's, to its end or to a limit, with their digest."""

from __future__ import annotations

import hashlib
import os

import pytest

from accuracy_db.errors import InputError
from accuracy_db.regular_files import MAX_INPUT_BYTES, read_bytes

SIZES = [0, 1, 99, 100, 101, (1 << 20) + 3, 3 * (1 << 20)]


@pytest.mark.parametrize("size", SIZES)
def test_a_file_is_read_whole_with_its_digest(tmp_path, size):
    path = tmp_path / "file.bin"
    data = os.urandom(size)
    path.write_bytes(data)
    digests: dict = {}
    assert read_bytes(path, digests=digests) == data
    assert digests == {str(path): (size, os.stat(path).st_mtime_ns, hashlib.sha256(data).hexdigest())}


@pytest.mark.parametrize("size", SIZES)
def test_a_file_over_the_limit_is_refused_and_one_within_it_read(tmp_path, size):
    path = tmp_path / "sidecar.json"
    data = os.urandom(size)
    path.write_bytes(data)
    limit = 100
    if size <= limit:
        assert read_bytes(path, limit, "sidecar") == data
    else:
        with pytest.raises(InputError) as refused:
            read_bytes(path, limit, "sidecar")
        assert [str(problem) for problem in refused.value.problems] == [
            f"{path}: more than 100 bytes: too big for a sidecar"
        ]


def test_a_file_larger_than_any_input_is_refused_before_a_byte_of_it_is_read(tmp_path, monkeypatch):
    path = tmp_path / "huge.csv"
    with path.open("wb") as file:
        file.truncate(MAX_INPUT_BYTES + 1)  # sparse: made at once, on no disk space
    monkeypatch.setattr(os, "read", lambda *args: pytest.fail("the file was read"))
    with pytest.raises(InputError) as refused:
        read_bytes(path)
    assert [str(problem) for problem in refused.value.problems] == [
        f"{path}: more than 2,000,000,000 bytes: too big for a file to load"
    ]


def test_a_fifo_is_refused_without_blocking(tmp_path):
    path = tmp_path / "fifo.csv"
    os.mkfifo(path)
    with pytest.raises(InputError) as refused:
        read_bytes(path)
    assert [str(problem) for problem in refused.value.problems] == [
        f"{path}: not a regular file: it is a FIFO (named pipe)"
    ]
