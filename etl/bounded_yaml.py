"""Parse YAML whose size of result is bounded by the size of the text: its events are checked before a value is
built, so that an alias bomb (a small file that expands to billions of entries) or deep nesting is refused."""

from __future__ import annotations

from accuracy_db.errors import InputError, Problem

from .unstorable_text import unstorable_text


def load_bounded_yaml(file: str, text: str, max_depth: int, what: str):
    """The value of a YAML document without anchors or aliases, at most max_depth levels of mappings and lists
    deep; InputError (one problem, with its line where there is one) otherwise."""
    import yaml

    loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
    try:
        level = 0
        for event in yaml.parse(text, Loader=loader):
            line = event.start_mark.line + 1
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None):
                raise InputError([Problem(file, line, f"YAML anchors and aliases are not allowed in a {what}")])
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                level += 1
                if level > max_depth:
                    raise InputError([Problem(file, line, f"not valid YAML: nested more than {max_depth} levels deep")])
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                level -= 1
        value = yaml.load(text, Loader=loader)
        unstorable = unstorable_text(value, text)
        if unstorable:
            raise InputError([Problem(file, None, unstorable)])
        return value
    except yaml.YAMLError as error:
        mark = getattr(error, "problem_mark", None)
        message = " ".join(str(getattr(error, "problem", None) or error).split())[:200]
        if message == "exceeded maximum nesting depth":  # PyYAML's own limit (6.0.4 on), met scanning ahead
            message = f"nested more than {max_depth} levels deep"
        raise InputError([Problem(file, mark.line + 1 if mark else None, f"not valid YAML: {message}")]) from None
    except ValueError:  # a number past sys.get_int_max_str_digits(), which yaml leaves to int()
        raise InputError([Problem(file, None, "not valid YAML: a number too long to read")]) from None
