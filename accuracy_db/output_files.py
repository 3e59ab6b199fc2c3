"""Write output files safely: every file a command writes where the user says (query -o, evaluate --csv_out,
adjudicate's NAME.csv, NAME.json and NAME.jsonl, export factgenie's campaign files) is written here.

A path is looked at without being opened or followed (lstat): a symbolic link there is refused, its target left as
it was; a directory, a FIFO, a device or a socket is refused in one line (opening a FIFO to write would wait for a
reader forever); an existing file is refused unless force is given; a file the command reads, or one registered as
an input of the database (a gold list, a registered folder's file, a Mu-SHROOM file, a scores file, the database
itself), is refused even then. The bytes go to a temporary file in the same folder, which is then put in place in
one step: linked to a new name (which fails, replacing nothing, if a file appeared there meanwhile), or renamed over
the old file with force. A reader sees the old file or the new one whole, never a part, and a failure leaves the old
file as it was. Every refusal is one line naming the file (AccuracyDbError), and nothing is written: the files of a
command are all checked before the first is written.
"""

from __future__ import annotations

import errno
import functools
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from accuracy_db.errors import AccuracyDbError, Problem
from accuracy_db.regular_files import not_regular

# A file system without hard links refuses link(2) with one of these: the new name is then reserved by an exclusive
# create, and the file renamed over it.
NO_HARD_LINKS = {errno.EPERM, errno.EOPNOTSUPP, errno.ENOSYS, errno.EMLINK, errno.EXDEV}
APPEARED = "appeared while it was written: give --force to replace it; nothing was written"


@dataclass(frozen=True)
class Inputs:
    """The paths an output never replaces, even with force: files (matched by path, and by identity when they
    exist, so that another spelling, a link or a hard link to one is caught) and folders (whose existing files are
    all inputs); whose inputs they are, as a message says it. Each path is looked at once, when first needed: a
    database can register tens of thousands, and a command checks each of its files more than once."""

    paths: tuple[str, ...] = ()
    whose: str = "the database"

    @functools.cached_property
    def absolute(self) -> frozenset[str]:
        return frozenset(os.path.abspath(path) for path in self.paths)

    @functools.cached_property
    def found(self) -> list[tuple[str, os.stat_result]]:
        """The paths that name something now, with what (links followed)."""
        found = []
        for path in self.paths:
            try:
                found.append((path, os.stat(path)))
            except OSError:
                continue
        return found

    @functools.cached_property
    def files(self) -> dict[tuple[int, int], str]:
        """The inputs that exist, by identity (device, inode)."""
        return {(seen.st_dev, seen.st_ino): path for path, seen in reversed(self.found)}

    @functools.cached_property
    def folders(self) -> list[tuple[str, str]]:
        """The folders among them, with their real path and a separator after it."""
        folders = [path for path, seen in self.found if stat.S_ISDIR(seen.st_mode)]
        return [(path, os.path.join(os.path.realpath(path), "")) for path in folders]


NO_INPUTS = Inputs()


def refuse(path: Path | str, message: str) -> AccuracyDbError:
    return AccuracyDbError(str(Problem(str(path), None, message)))


def cannot_write(path: Path | str, error: OSError) -> AccuracyDbError:
    return refuse(path, f"cannot write the file ({error.strerror or error}); nothing was written")


def check(path: Path | str, force: bool = False, inputs: Inputs = NO_INPUTS) -> None:
    """Refuse (AccuracyDbError, one line naming the file) a path that write_files would not write."""
    try:
        found = os.lstat(path)
    except FileNotFoundError:
        found = None
    except OSError as error:  # a folder of the path is a file, a name too long…
        raise cannot_write(path, error) from None
    if found is not None and stat.S_ISLNK(found.st_mode):
        raise refuse(path, "is a symbolic link: it is not followed, and nothing was written (give another name)")
    if found is not None and not stat.S_ISREG(found.st_mode):
        raise refuse(path, f"{not_regular(found.st_mode)}; nothing was written (give a file's name)")
    registered = input_named(path, found, inputs)
    if registered is not None:
        raise refuse(path, f"{registered}: it is never replaced, even with --force; nothing was written")
    if found is not None and not force:
        raise refuse(path, "exists: give --force to replace it; nothing was written")


def input_named(path: Path | str, found: os.stat_result | None, inputs: Inputs) -> str | None:
    """How the path is one of the inputs (None when it is none): the same path, the same file, or a file in one of
    their folders, the first that holds."""
    absolute = os.path.abspath(path)
    if absolute in inputs.absolute:
        return f"is an input of {inputs.whose}"
    if found is None or not inputs.paths:
        return None
    same = inputs.files.get((found.st_dev, found.st_ino))
    if same is not None:
        return f"is an input of {inputs.whose} ({same})"
    real = os.path.join(os.path.realpath(os.path.dirname(absolute)), os.path.basename(absolute))
    for folder, real_folder in inputs.folders:
        if real.startswith(real_folder):
            return f"is in {folder}, a folder of the inputs of {inputs.whose}"
    return None


def write_files(contents: dict[Path, bytes], force: bool = False, inputs: Inputs = NO_INPUTS) -> None:
    """Write each file whole (see the module's docstring), after checking them all: a refusal writes none."""
    for path in contents:
        check(path, force, inputs)
    for path, data in contents.items():
        write_file(path, data, force, inputs)


def write_file(path: Path, data: bytes, force: bool = False, inputs: Inputs = NO_INPUTS) -> None:
    """Write one file whole: to a temporary file beside it, then put in place in one step."""
    import tempfile  # here: only a command that writes a file pays its import

    check(path, force, inputs)
    folder, name = os.path.split(os.path.abspath(path))
    try:
        fd, temporary = tempfile.mkstemp(prefix=f".{name[:64]}.", suffix=".partial", dir=folder)
    except OSError as error:
        raise cannot_write(path, error) from None
    try:
        with os.fdopen(fd, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, 0o666 & ~current_umask())  # as a file opened to write gets it (mkstemp gives 0600)
        put_in_place(path, temporary, force, inputs)
    except OSError as error:
        raise cannot_write(path, error) from None
    finally:
        if os.path.lexists(temporary):
            os.unlink(temporary)


def put_in_place(path: Path, temporary: str, force: bool, inputs: Inputs) -> None:
    """The written temporary file under the path's name: a new name by a hard link (link(2) never replaces, nor
    follows a link), the old file by a rename (which replaces the name, never a link's target) with force."""
    check(path, force, inputs)  # again: the path may have changed while the file was written
    if force:
        os.replace(temporary, path)
        return
    try:
        os.link(temporary, path, follow_symlinks=False)
    except FileExistsError:
        raise refuse(path, APPEARED) from None
    except OSError as error:
        if error.errno not in NO_HARD_LINKS:
            raise
        try:
            os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0), 0o600))
        except FileExistsError:
            raise refuse(path, APPEARED) from None
        os.replace(temporary, path)


def current_umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def make_folder(folder: Path) -> None:
    """The folder the outputs go to, made with its parents when missing; one line naming it when it cannot be."""
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise refuse(folder, f"cannot make the folder ({error.strerror or error}); nothing was written") from None


def command_inputs(paths: Iterable[Path | str | None], whose: str = "this command") -> Inputs:
    """The files a command reads, as inputs its outputs never replace."""
    return Inputs(tuple(str(path) for path in paths if path is not None), whose)
