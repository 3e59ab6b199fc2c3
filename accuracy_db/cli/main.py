"""The accuracy-db command: it parses arguments and calls the functions that do the work (one command a file,
in accuracy_db/cli/commands/)."""

from __future__ import annotations

import importlib
import os
import pkgutil
import sys

import click

from accuracy_db.cli import commands
from accuracy_db.cli.commands import SHOWN_PROBLEMS
from accuracy_db.errors import AccuracyDbError, InputError
from accuracy_db.printable import is_utf8, printable


class CommandModules(click.Group):
    """Each module of accuracy_db/cli/commands/ holds one command, named like the module (fetch_data: fetch-data;
    import_: import, a Python keyword).
    A command's module is imported only when it is asked for, so that a command starts without loading what the
    others need (the drop-in `evaluate` races the shared task's scorer as a whole process)."""

    def modules(self) -> dict[str, str]:
        return {
            module.name.rstrip("_").replace("_", "-"): module.name for module in pkgutil.iter_modules(commands.__path__)
        }

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(self.modules())

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        module = self.modules().get(name)
        if module is None:
            return None
        return getattr(importlib.import_module(f"{commands.__name__}.{module}"), module)


@click.group(cls=CommandModules, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="accuracy-db")
def cli() -> None:
    """An SQL-backed evaluation database for the Accuracy Evaluation Shared Task (INLG 2021)."""


def main(args: list[str] | None = None) -> None:
    """Run the command; a failure the user can act on is printed as a message, without a traceback."""
    # Exit only once the failure is handled and gone: what it still held (a DuckDB connection, say) is then
    # released before the interpreter shuts down.
    sys.exit(run(args))


def not_utf8_input(args: list[str]) -> str | None:
    """The first argument, or variable of the tool's environment (ACCURACY_DB_…), whose bytes are not UTF-8 (Python
    reads them as lone surrogates): it names no file DuckDB can open or record, and no text it can hold."""
    for arg in args:
        if not is_utf8(arg):
            return f"the argument {arg}"
    for name, value in os.environ.items():
        if name.startswith("ACCURACY_DB_") and not is_utf8(value):
            return f"the environment variable {name}={value}"
    return None


def run(args: list[str] | None) -> int:
    """Run the command and return the exit status."""
    not_utf8 = not_utf8_input(sys.argv[1:] if args is None else args)
    if not_utf8:
        click.echo(f"error: {printable(not_utf8)} is not UTF-8 text", err=True)
        return 2
    try:
        cli.main(args=args, prog_name="accuracy-db", standalone_mode=False)
    except click.exceptions.Exit as exit:
        return exit.exit_code
    except click.UsageError as error:  # one line, as every other error
        command = error.ctx.command_path if error.ctx else "accuracy-db"
        click.echo(f"error: {error.format_message()} (see {command} --help)", err=True)
        return error.exit_code
    except click.ClickException as error:
        error.show()
        return error.exit_code
    except (click.Abort, KeyboardInterrupt):
        click.echo("Aborted.", err=True)
        return 130
    except RuntimeError as error:
        from accuracy_db.signals import is_interrupt  # (imports DuckDB, which a command that fails this way has loaded)

        if not is_interrupt(error):
            raise
        click.echo("Aborted.", err=True)  # Ctrl+C that came during a DuckDB query, which raises its own error
        return 130
    except InputError as error:
        # As build lists a refused file: its first problems, then how many more (a wrong file can have thousands).
        files = sorted({p.file for p in error.problems})
        for file in files:
            problems = [problem for problem in error.problems if problem.file == file]
            for problem in problems[:SHOWN_PROBLEMS]:
                click.echo(str(problem), err=True)
            if len(problems) > SHOWN_PROBLEMS:
                click.echo(printable(f"  … and {len(problems) - SHOWN_PROBLEMS} more problem(s) in {file}"), err=True)
        click.echo(printable(f"{len(error.problems)} problem(s) in {', '.join(files)}; nothing was loaded."), err=True)
        return 1
    except AccuracyDbError as error:
        click.echo(f"error: {printable(str(error))}", err=True)
        return 1
    return 0
