"""Writing files whole or not at all: tournament and analysis reports (TOML or JSON, from one
table), and the face's best scores."""

from __future__ import annotations

import errno
import json
import os
import re
import stat
import tempfile
import tomllib
from pathlib import Path
from typing import Any, Literal, get_args

import tomli_w

from .errors import ConfigError, FileWriteError


def reason(error: BaseException) -> str:
    """Why something failed, in a few words for a sentence: the system's message, else the error's own."""
    if isinstance(error, OSError) and error.strerror:
        return error.strerror
    return str(error) or type(error).__name__


def through_links(path: Path) -> Path:
    """The file a path names, its symbolic links followed (a link to nothing names the file it
    would make). Raises OSError for a loop of links."""
    target = Path(os.path.realpath(path))
    if target.is_symlink():
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    return target


def check_writable(path: Path) -> None:
    """Fail early, before long work, if a file clearly cannot be written at `path` (or at the file
    its symbolic link names): a folder, a device or a pipe is there (renaming over it would replace
    it), or its folder is missing or not writable, or the name itself is impossible (too long, a
    null character)."""
    shown = repr(str(path))
    try:
        target = through_links(path)
        found = _mode(target)
        folder = target.parent
        folder_mode = _mode(folder)
    except ValueError:  # a null character
        raise FileWriteError(f"cannot write {shown}: a file name cannot hold a null character.") from None
    except OSError as error:  # a name too long, a loop of symbolic links, a folder that cannot be searched
        raise FileWriteError(f"cannot write {shown}: {reason(error)}.") from None
    if found is not None and stat.S_ISDIR(found):
        raise FileWriteError(f"cannot write {shown}: it is a folder.")
    if found is not None and not stat.S_ISREG(found):
        raise FileWriteError(f"cannot write {shown}: it is not a regular file (a device or a pipe).")
    if folder_mode is None or not stat.S_ISDIR(folder_mode):
        raise FileWriteError(f"cannot write {shown}: there is no folder {str(folder)!r}.")
    if not os.access(folder, os.W_OK):
        raise FileWriteError(f"cannot write {shown}: the folder {str(folder)!r} is not writable.")


def _mode(path: Path) -> int | None:
    """The mode of what is at `path` (a symbolic link followed), None if nothing is there."""
    try:
        return path.stat().st_mode
    except (FileNotFoundError, NotADirectoryError):
        return None


def write_atomically(path: Path, data: bytes) -> os.stat_result:
    """Write `data` to `path` whole or not at all: to a temporary file in the same folder, flushed
    to disk, then renamed over the target, so readers (and a crash) see the old file or the new
    one, never half of one. A symbolic link is written through: the file it names gets the data,
    and the link stays. The file gets the old file's permissions, or a new file's under the
    umask. Returns the status of the file written; raises the system's OSError."""
    target = through_links(path)
    handle, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as file:
            file.write(data)
            file.flush()
            os.fsync(file.fileno())
            written = os.fstat(file.fileno())
        os.chmod(temporary, _file_mode(target))
        os.replace(temporary, target)
    finally:  # after a failure or an interruption (Ctrl-C) alike; after the rename it is gone
        Path(temporary).unlink(missing_ok=True)
    return written


FileFormat = Literal["toml", "json"]
"""How a table is written: TOML, or JSON."""
FORMATS: tuple[FileFormat, ...] = get_args(FileFormat)
"""The formats a report is written in."""


def format_of(path: Path) -> FileFormat:
    """The format a report file is written in: JSON for a `.json` file, else TOML."""
    return "json" if Path(path).suffix.lower() == ".json" else "toml"


def dumps(data: dict[str, Any], form: FileFormat = "toml") -> str:
    """A table as TOML, or as JSON with its keys in their order, 2-space indent and a final newline:
    the same text for the same table, byte for byte."""
    if form == "json":
        return json.dumps(data, indent=2, ensure_ascii=False, allow_nan=False) + "\n"
    return "\n".join(_toml_sections(data, ""))


def _toml_sections(table: dict[str, Any], name: str, array: bool = False) -> list[str]:
    """A table as TOML sections: tomli-w writes each value, this writes every array of tables as
    `[[name]]` sections however short (tomli-w would write a short one inline), so a report has
    one shape whatever its size."""
    literals: dict[str, Any] = {}
    nested: list[tuple[str, list[dict[str, Any]], bool]] = []
    for key, value in table.items():
        if isinstance(value, dict):
            nested.append((key, [value], False))
        elif isinstance(value, list) and value and all(isinstance(item, dict) for item in value):
            nested.append((key, value, True))
        else:
            literals[key] = value
    sections = []
    if array or (name and (literals or not nested)):
        sections.append(f"[[{name}]]\n" if array else f"[{name}]\n")
    if literals:
        sections[-1:] = ["".join(sections[-1:]) + tomli_w.dumps(literals)]
    for key, items, is_array in nested:
        path = f"{name}.{_toml_key(key)}" if name else _toml_key(key)
        for item in items:
            sections += _toml_sections(item, path, is_array)
    return sections


def _toml_key(key: str) -> str:
    return key if re.fullmatch(r"[A-Za-z0-9_-]+", key) else json.dumps(key)


def write_table_atomically(path: Path, data: dict[str, Any], form: FileFormat = "toml") -> None:
    """Write `data` as TOML or JSON to `path` whole or not at all (see `write_atomically`), after
    checking that it can be written; a failure is a `FileWriteError` naming the file."""
    path = Path(path)
    text = dumps(data, form).encode()
    check_writable(path)
    try:
        write_atomically(path, text)
    except OSError as error:
        raise FileWriteError(f"cannot write {str(path)!r}: {reason(error)}.") from error


def _file_mode(path: Path) -> int:
    """The mode a new file would get (mkstemp makes it private): the old file's, or the umask's."""
    try:
        return path.stat().st_mode & 0o777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def read_document(path: Path, what: str, most: int) -> dict[str, Any]:
    """The table of a file the run reads as a document (a config, a report; see `read_bytes`): JSON
    for a `.json` file, or for another name than `.toml` whose text opens with `{` (a TOML document
    never does), else TOML; a ConfigError of one sentence naming it as `what` if it is neither."""
    data = read_bytes(path, what, most)
    name = f"{what} {str(path)!r}"
    suffix = path.suffix.lower()
    form = "JSON" if suffix == ".json" or (suffix != ".toml" and data.lstrip()[:1] == b"{") else "TOML"
    try:
        text = data.decode()
        table = json.loads(text) if form == "JSON" else tomllib.loads(text)
    except UnicodeDecodeError:
        raise ConfigError(f"{name} is not valid {form}: it is not UTF-8 text.") from None
    except ValueError as error:  # json.JSONDecodeError and tomllib.TOMLDecodeError alike
        raise ConfigError(f"{name} is not valid {form}: {str(error).rstrip('.')}.") from None
    except RecursionError:
        raise ConfigError(f"{name} nests tables or arrays too deeply to be read.") from None
    if not isinstance(table, dict):
        raise ConfigError(f"{name} holds a JSON {_JSON_KINDS.get(type(table), 'value')}, not an object of keys.")
    return table


_JSON_KINDS = {list: "array", str: "string", int: "number", float: "number", bool: "true or false"}


def read_bytes(path: Path, what: str, most: int) -> bytes:
    """A file the run reads (a config, a checkpoint, a report): a regular file of at most `most`
    bytes, checked before it is read (a FIFO or a device would never end), else a ConfigError of
    one sentence naming it as `what` ("config file")."""
    name = f"{what} {str(path)!r}"
    try:
        if path.exists() and not path.is_file():
            raise ConfigError(f"{name} is not a regular file.")
        with path.open("rb") as file:
            data = file.read(most + 1)
    except FileNotFoundError:
        raise ConfigError(f"no {name}.") from None
    except OSError as error:
        raise ConfigError(f"cannot read {name}: {error.strerror or error}.") from None
    if len(data) > most:
        raise ConfigError(f"{name} is larger than {most:,} bytes.")
    return data
