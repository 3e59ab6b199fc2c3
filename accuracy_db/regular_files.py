"""Read input files safely: only regular files (after following links), by their exact path, never blocking.

Every input file of the project is read here, once, into bytes: what is hashed is what is parsed, and DuckDB is
handed the bytes, never a path (its readers take `[`, `*`, `?` in a path for a glob pattern). A FIFO, a device, a
directory, a socket or a dangling link is refused with a reason instead of being opened, and the file is opened
with O_NONBLOCK, so that one swapped in for the file after the check cannot block the open either.
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO

from accuracy_db.errors import InputError, Problem
from accuracy_db.printable import is_utf8

# The most bytes of one input file read whole (a mistake list, a text, a corpus file…): the largest of scale 1000 has
# 178 MB. A larger file, a sparse one of 100 GB made in an instant say, is refused before it is read, not left to
# take the memory of the refresh that reads it, and of every refresh after it while it lies in the inbox.
MAX_INPUT_BYTES = 2_000_000_000

# What a build read, by path: (size, modification time in ns, SHA-256 of the bytes read), from the open file, so that
# the fingerprints of the inputs need no second read (sources.fingerprint).
Digests = dict[str, tuple[int, int, str]]

KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a FIFO (named pipe)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


# Names are recorded as text and given to DuckDB, which takes UTF-8 only (Problem shows the bytes as escapes).
NOT_UTF8_NAME = "the file's name is not UTF-8 text: rename the file"


def refusal(path: Path | str) -> str | None:
    """Why the file at path cannot be read as a regular file (following links); None when it can be."""
    if not is_utf8(os.fspath(path)):
        return NOT_UTF8_NAME
    try:
        mode = os.stat(path).st_mode
    except OSError as error:
        return unreadable(path, error)
    return None if stat.S_ISREG(mode) else not_regular(mode)


def not_regular(mode: int) -> str:
    kind = next((name for test, name in KINDS if test(mode)), "not a file")
    return f"not a regular file: it is {kind}"


def unreadable(path: Path | str, error: OSError) -> str:
    if isinstance(error, FileNotFoundError) and os.path.islink(path):
        return "cannot read the file: it is a symbolic link to a file that does not exist"
    return f"cannot read the file ({error.strerror or error})"


@contextmanager
def regular_fd(path: Path | str) -> Iterator[tuple[int, int]]:
    """The file's descriptor, opened for reading, and its size; InputError (one problem, naming the file) when it is
    no regular file or cannot be opened."""
    reason = refusal(path)
    if reason:
        raise InputError([Problem(str(path), None, reason)])
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as error:
        raise InputError([Problem(str(path), None, unreadable(path, error))]) from None
    try:
        stat_result = os.fstat(fd)
        if not stat.S_ISREG(stat_result.st_mode):  # swapped after the check
            raise InputError([Problem(str(path), None, not_regular(stat_result.st_mode))])
        yield fd, stat_result.st_size
    finally:
        os.close(fd)


@contextmanager
def open_regular(path: Path | str) -> Iterator[BinaryIO]:
    """The file opened for reading in binary (see regular_fd)."""
    with regular_fd(path) as (fd, _), os.fdopen(fd, "rb", closefd=False) as stream:
        yield stream


def advise_will_need(path: Path | str) -> None:
    """Ask the kernel to start reading a regular file into memory, so that it is there when read: reading the 60,000
    small texts of scale 1000 from the disk took half the time so (without, a file at a time, each read waits for
    the disk). Opened as regular_fd opens a file; nothing fails here: a file that cannot be read is reported when it is
    read."""
    if not hasattr(os, "posix_fadvise"):  # the advice is Linux's (and some Unix's)
        return
    try:
        with regular_fd(path) as (fd, _):
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_WILLNEED)
    except (InputError, OSError):
        pass


def read_bytes(
    path: Path | str, limit: int = MAX_INPUT_BYTES, what: str = "file to load", digests: Digests | None = None
) -> bytes:
    """The bytes of a regular file; InputError when it is none, or when it has more bytes than limit (told by its
    size before anything is read, or by the reading when it grew). With digests, the file's digest is recorded
    there."""
    with regular_fd(path) as (fd, size):
        if size > limit:
            raise InputError([Problem(str(path), None, f"more than {limit:,} bytes: too big for a {what}")])
        data = read_open(path, fd, size, limit)
        if digests is not None:
            record_digest(digests, path, fd, len(data), hashlib.sha256(data).hexdigest())
    if len(data) > limit:
        raise InputError([Problem(str(path), None, f"more than {limit:,} bytes: too big for a {what}")])
    return data


def read_fd(fd: int, size: int, limit: int) -> bytes:
    """An open file of size bytes read to its end, or to limit + 1 bytes. Plain reads on the descriptor: for a
    small file, two system calls (its size and one byte more, then the end), where a buffered stream of Python's
    makes several more and costs more than the read itself."""
    wanted = limit + 1
    chunks = []
    request = size + 1  # the whole file and one byte more; a file that grew goes on below
    while wanted > 0:
        chunk = os.read(fd, min(request, wanted))
        if not chunk:
            break
        chunks.append(chunk)
        wanted -= len(chunk)
        request = 1 << 20
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_open(path: Path | str, fd: int, size: int, limit: int) -> bytes:
    """read_fd on the open file of path; InputError (one problem, naming the file) when reading fails."""
    try:
        return read_fd(fd, size, limit)
    except OSError as error:
        raise InputError([Problem(str(path), None, unreadable(path, error))]) from None


def read_line_blocks(path: Path | str, fd: int, block_bytes: int = 1 << 24) -> Iterator[bytes]:
    """An open file's bytes to its end, in blocks of whole lines (the last block may end without a newline): a
    file parsed a line at a time need not be held whole. A line longer than a block makes a longer block. InputError
    (one problem, naming the file) when reading fails."""
    pieces: list[bytes] = []  # of a line longer than what was read so far: joined once, when it ends
    while True:
        try:
            block = os.read(fd, block_bytes)
        except OSError as error:
            raise InputError([Problem(str(path), None, unreadable(path, error))]) from None
        if not block:
            break
        end = block.rfind(b"\n") + 1
        if end == 0:
            pieces.append(block)
            continue
        yield b"".join([*pieces, block[:end]]) if pieces else block[:end]
        pieces = [block[end:]] if end < len(block) else []
    if pieces:
        yield b"".join(pieces)


def record_digest(digests: Digests, path: Path | str, fd: int, size: int, sha256: str) -> None:
    """Record the digest of the size bytes read from an open file, with the file's size and time: only when it has
    that size still (a file that grew or shrank while it was read is hashed again)."""
    stat_result = os.fstat(fd)
    if stat_result.st_size == size:
        digests[str(path)] = (size, stat_result.st_mtime_ns, sha256)


def decode(path: Path | str, data: bytes) -> str:
    """UTF-8 text (a byte order mark is dropped) without a NUL; InputError naming the line of the first byte that
    is not UTF-8, or of the first NUL."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        utf16 = data.startswith((b"\xff\xfe", b"\xfe\xff"))
        message = "is UTF-16 text: save it as UTF-8" if utf16 else "is not UTF-8 text"
        line = None if utf16 else data[: error.start].count(b"\n") + 1
        raise InputError([Problem(str(path), line, message)]) from None
    nul = nul_problem(path, data)
    if nul is not None:
        raise InputError([nul])
    return text


def nul_problem(path: Path | str, data: bytes) -> Problem | None:
    """The first NUL of a file's bytes, at its line: DuckDB stores it, but no text of PostgreSQL can hold it (an
    export would fail as a whole, naming no table or row)."""
    at = data.find(b"\0")  # (memchr, fast)
    if at < 0:
        return None
    return Problem(str(path), data.count(b"\n", 0, at) + 1, "holds a NUL character (byte 0), which no text can hold")


def read_text(
    path: Path | str, limit: int = MAX_INPUT_BYTES, what: str = "file to load", digests: Digests | None = None
) -> str:
    """The UTF-8 text of a regular file (see read_bytes and decode)."""
    return decode(path, read_bytes(path, limit, what, digests))


def sha256_of(path: Path | str) -> str:
    with open_regular(path) as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()
