"""A command-line mistake caught while parsing (typer's usage errors) as one of our sentences:
what was wrong and what is accepted, in the project's words, not a validation library's."""

import re
from typing import Any

_BOUND = re.compile(r"Input should be (greater|less) than or equal to (\S+)")
_KINDS = {"int": "a whole number", "float": "a number"}


def in_our_words(error: Any) -> str:
    """The sentence for a usage error (without the final full stop)."""
    kind = type(error).__name__
    if kind == "NoSuchOption":
        close = [name for name in error.possibilities or () if name not in ("--help", "-h")]
        return f"no option {error.option_name}" + (f"; did you mean {_either(sorted(close))}?" if close else "")
    if kind == "MissingParameter":
        return f"missing {_what(error)}"
    if kind == "BadParameter":
        return _bad_value(error)
    return _plain(error)


def _either(words: list[str]) -> str:
    """`a, b or c`."""
    return ", ".join(words[:-1]) + f" or {words[-1]}" if len(words) > 1 else words[0]


def _what(error: Any) -> str:
    """How a parameter is named: an option by its longest flag, an argument by its metavar."""
    param = error.param
    if param is None:
        return "a value"
    if param.param_type_name == "argument":
        return f"argument {param.metavar or param.name}"
    return f"option {max(param.opts, key=len)}"


def _bad_value(error: Any) -> str:
    """A value of the wrong type, out of bounds or not one of the choices."""
    param = error.param
    name = _what(error).removeprefix("option ").removeprefix("argument ")
    message = error.message.replace("Value error, ", "").rstrip(".")
    given = _given(error)
    bound = _BOUND.search(message)
    if bound:
        return f"{name} must be at {'least' if bound[1] == 'greater' else 'most'} {bound[2]}"
    descriptor = getattr(param, "type_descriptor", None)
    if descriptor is not None and descriptor.choices is not None and " is not one of " in message:
        values = [str(getattr(choice, "value", choice)) for choice in descriptor.choices]
        return f"{name} must be one of {_either(values)}, not {given}"
    annotation = getattr(descriptor, "annotation", None)
    wanted = _KINDS.get(getattr(annotation, "__name__", ""))
    if wanted is not None:
        return f"{name} must be {wanted}, not {given}"
    return f"{name}: {message[:1].lower()}{message[1:]}"


def _given(error: Any) -> str:
    """The value the user typed, quoted (from the validation error behind the usage error)."""
    cause = error.__cause__
    errors = getattr(cause, "errors", None)
    if callable(errors):
        found = errors()
        if found and "input" in found[0]:
            return repr(str(found[0]["input"]))
    match = re.match(r"('.*?') is not one of", error.message)
    return match[1] if match else "that"


def _plain(error: Any) -> str:
    """Any other usage error: click's words, made one of ours."""
    message: str = error.format_message().rstrip(".")
    requires = re.fullmatch(r"Option '(\S+)' requires an argument", message)
    if requires:
        return f"{requires[1]} needs a value"
    no_value = re.fullmatch(r"Option '(\S+)' does not take a value", message)
    if no_value:
        return f"{no_value[1]} takes no value"
    command = re.fullmatch(r"No such command '(.*)'", message)
    if command and error.ctx is not None:
        return f"no command {command[1]!r}; the commands are {', '.join(error.ctx.command.commands)}"
    extra = re.fullmatch(r"Got unexpected extra arguments?(?:\(s\))? \((.*)\)", message)
    if extra:
        return f"unexpected argument {extra[1]!r}"
    return message[:1].lower() + message[1:]
