"""A list's metadata sidecar (NAME.json or NAME.yaml beside NAME.csv, in the submissions folder or a corpus
folder's lists/): team, system, approach, description and url, each a text, read within bounds."""

from __future__ import annotations

import json
from pathlib import Path

from accuracy_db.errors import InputError, Problem, quoted
from accuracy_db.regular_files import read_text

from .bounded_yaml import load_bounded_yaml
from .unstorable_text import unstorable_text

SIDECAR_SUFFIXES = (".json", ".yaml", ".yml")
METADATA_KEYS = ("team", "system", "approach", "description", "url")
APPROACHES = ("metric", "human", "hybrid")
SIDECAR_BYTES = 64 * 1024  # a sidecar holds five short texts
SIDECAR_DEPTH = 3  # a mapping of texts is 2 deep; one more lets a list or a mapping given as a value be named


def read_sidecar(path: Path) -> dict:
    """What a sidecar says: team, system, approach (metric, human or hybrid), description, url, each a text.

    Bounded before it is parsed: at most SIDECAR_BYTES, SIDECAR_DEPTH levels deep, and no YAML aliases (an alias
    bomb expands a small file into a huge value)."""
    file = str(path)
    text = read_text(path, SIDECAR_BYTES, "sidecar")
    if path.suffix == ".json":
        try:
            metadata = json.loads(text)
        except json.JSONDecodeError as error:
            raise InputError([Problem(file, error.lineno, f"not valid JSON: {error.msg}")]) from None
        except RecursionError:
            raise InputError([Problem(file, None, "not valid JSON: nested too deeply")]) from None
        except ValueError:  # a number past sys.get_int_max_str_digits(), which json leaves to int()
            raise InputError([Problem(file, None, "not valid JSON: a number too long to read")]) from None
        if depth(metadata) > SIDECAR_DEPTH:
            raise InputError([Problem(file, None, f"not valid JSON: nested more than {SIDECAR_DEPTH} levels deep")])
        unstorable = unstorable_text(metadata, text)
        if unstorable:
            raise InputError([Problem(file, None, unstorable)])
    else:
        metadata = load_bounded_yaml(file, text, SIDECAR_DEPTH, "sidecar")
    if not isinstance(metadata, dict):
        raise InputError([Problem(file, None, f"expected a mapping with the keys {', '.join(METADATA_KEYS)}")])
    problems = [
        Problem(file, None, f"unknown key {quoted(key)}: the keys are {', '.join(METADATA_KEYS)}")
        for key in metadata
        if key not in METADATA_KEYS
    ]
    problems += [
        Problem(file, None, f"{key} is {quoted(value)}, not a text (in YAML, put it in quotes)")
        for key, value in metadata.items()
        if key in METADATA_KEYS and value is not None and not isinstance(value, str)
    ]
    if isinstance(metadata.get("approach"), str) and metadata["approach"] not in APPROACHES:
        problems.append(Problem(file, None, f"approach is {quoted(metadata['approach'])}: metric, human or hybrid"))
    if problems:
        raise InputError(problems)
    return {key: metadata.get(key) for key in METADATA_KEYS}


def depth(value) -> int:
    """How many levels of lists and mappings a parsed JSON value has (a text or a number: 0)."""
    levels, level = 0, [value]
    while level:
        levels += 1
        level = [
            item
            for container in level
            if isinstance(container, (dict, list))
            for item in (container.values() if isinstance(container, dict) else container)
        ]
    return levels - 1
