"""Reading import-linter's configuration: `.importlinter` / `setup.cfg` (INI) and
`[tool.importlinter]` of `pyproject.toml` (TOML), as import-linter 2 reads them.

import-linter tries its INI reader first (`setup.cfg`, then `.importlinter`: the first file
with an `[importlinter]` section wins), then `pyproject.toml`; a file named on the command
line is the only one read. Values keep import-linter's shape: a string, or a tuple of strings
(a multi-line INI value, a TOML array); TOML booleans and integers become their text.
"""

from __future__ import annotations

import configparser
import re
import tomllib
from collections.abc import Mapping

import attrs

from inwards_core.config.nesting import TomlTooDeepError, load_toml

# import-linter's own search order (importlinter.adapters.user_options).
SEARCH_ORDER = ("setup.cfg", ".importlinter", "pyproject.toml")

Value = str | tuple[str, ...]


@attrs.frozen
class Contract:
    """One contract as written: `id` (the INI section's suffix or the TOML `id`, "" when
    none), `name`, `type`, every other option in file order, and the line it starts on."""

    id: str
    name: str
    type: str
    options: tuple[tuple[str, Value], ...]
    line: int

    @property
    def label(self) -> str:
        """How a message names the contract: its id, else its name."""
        return self.id or self.name

    def get(self, key: str) -> Value | None:
        return next((value for name, value in self.options if name == key), None)


@attrs.frozen
class ImportLinterConfig:
    """The session options (`root_packages` merged from `root_package`) and the contracts."""

    file: str
    root_packages: tuple[str, ...]
    session: tuple[tuple[str, Value], ...]
    contracts: tuple[Contract, ...]

    def flag(self, key: str) -> bool:
        """A session option read as import-linter reads a boolean (`"True"`, `"true"`)."""
        value = dict(self.session).get(key)
        return isinstance(value, str) and value.strip().lower() == "true"


@attrs.frozen
class ReadProblem:
    """Why no configuration could be read: the file (or "" when none was found), the line
    (0 when unknown) and what is wrong."""

    file: str
    line: int
    message: str

    def render(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        return f"{where}: {self.message}" if where else self.message


def read_importlinter(
    files: Mapping[str, str], *, named: str | None = None
) -> ImportLinterConfig | ReadProblem:
    """The configuration import-linter would read from `files` (file name -> text of the
    files present in the project directory); `named` is the file given on the command line,
    which is then the only one read (a `.toml` name as TOML, any other as INI)."""
    if named is not None:
        if named not in files:
            return ReadProblem(named, 0, "no such file")
        found = _read_one(named, files[named])
        if found is None:
            section = "[tool.importlinter]" if _is_toml(named) else "[importlinter]"
            return ReadProblem(named, 0, f"has no {section} section")
        return found
    for name in SEARCH_ORDER:
        if name in files:
            found = _read_one(name, files[name])
            if found is not None:
                return found
    return ReadProblem(
        "",
        0,
        "no import-linter configuration found: none of setup.cfg, .importlinter "
        "([importlinter]) or pyproject.toml ([tool.importlinter]) holds one",
    )


def _is_toml(name: str) -> bool:
    return name.endswith(".toml")


def _read_one(name: str, text: str) -> ImportLinterConfig | ReadProblem | None:
    return _read_toml(name, text) if _is_toml(name) else _read_ini(name, text)


def _read_ini(name: str, text: str) -> ImportLinterConfig | ReadProblem | None:
    parser = configparser.ConfigParser()
    try:
        parser.read_string(text, source=name)
    except configparser.Error as error:
        line = getattr(error, "lineno", 0) or 0
        return ReadProblem(name, int(line), f"is not a readable INI file: {_first_line(error)}")
    if "importlinter" not in parser.sections():
        return None
    contracts = []
    lines = _section_lines(text)
    for section in parser.sections():
        if not section.startswith("importlinter:"):
            continue
        options = _ini_options(parser[section])
        contract_id = section.split(":")[-1]
        contracts.append(_contract(contract_id, options, lines.get(section, 0)))
    session = _ini_options(parser["importlinter"])
    return _config(name, session, tuple(contracts))


def _ini_options(section: configparser.SectionProxy) -> list[tuple[str, Value]]:
    """import-linter's cleaning: a value holding a line break is a list of its lines."""
    options: list[tuple[str, Value]] = []
    for key in section:
        raw = section[key]
        if "\n" in raw:
            lines = tuple(line.strip() for line in raw.strip().split("\n"))
            options.append((key, tuple(line for line in lines if line)))
        else:
            options.append((key, raw.strip()))
    return options


def _read_toml(name: str, text: str) -> ImportLinterConfig | ReadProblem | None:
    try:
        data = load_toml(text)
    except TomlTooDeepError as error:
        return ReadProblem(name, error.line or 0, str(error))
    except tomllib.TOMLDecodeError as error:
        match = re.search(r"line (\d+)", str(error))
        line = int(match.group(1)) if match else 0
        return ReadProblem(name, line, f"is not valid TOML: {error}")
    tool = data.get("tool", {})
    table = tool.get("importlinter") if isinstance(tool, dict) else None
    if not isinstance(table, dict) or not table:
        return None
    raw_contracts = table.get("contracts", [])
    if not isinstance(raw_contracts, list) or not all(isinstance(c, dict) for c in raw_contracts):
        line = _line_of(text, re.compile(r"^[ \t]*\[tool\.importlinter\]", re.MULTILINE), 0)
        return ReadProblem(name, line, "tool.importlinter.contracts must be an array of tables")
    header = re.compile(r"^[ \t]*\[\[[ \t]*tool\.importlinter\.contracts\s*\]\]", re.MULTILINE)
    starts = [text.count("\n", 0, m.start()) + 1 for m in header.finditer(text)]
    contracts = []
    for index, raw in enumerate(raw_contracts):
        options = [(str(key), _toml_value(value)) for key, value in raw.items()]
        contract_id = dict(options).pop("id", "")
        options = [(key, value) for key, value in options if key != "id"]
        line = starts[index] if index < len(starts) else 0
        contracts.append(_contract(_text(contract_id), options, line))
    session = [(str(k), _toml_value(v)) for k, v in table.items() if k != "contracts"]
    return _config(name, session, tuple(contracts))


def _toml_value(value: object) -> Value:
    if isinstance(value, list | tuple):
        return tuple(_scalar(item) for item in value)
    return _scalar(value)


def _scalar(value: object) -> str:
    if isinstance(value, bool):
        return str(value)  # "True"/"False", as import-linter normalises them
    return str(value).strip()


def _text(value: Value) -> str:
    return value if isinstance(value, str) else "\n".join(value)


def _contract(contract_id: str, options: list[tuple[str, Value]], line: int) -> Contract:
    known = dict(options)
    rest = tuple((key, value) for key, value in options if key not in ("name", "type"))
    return Contract(
        id=contract_id.strip(),
        name=_text(known.get("name", "")).strip(),
        type=_text(known.get("type", "")).strip(),
        options=rest,
        line=line,
    )


def _config(
    name: str, session: list[tuple[str, Value]], contracts: tuple[Contract, ...]
) -> ImportLinterConfig:
    values = dict(session)
    roots: list[str] = []
    for key in ("root_package", "root_packages"):
        value = values.get(key)
        if value is not None:
            roots.extend(value if isinstance(value, tuple) else (value,))
    rest = tuple((k, v) for k, v in session if k not in ("root_package", "root_packages"))
    return ImportLinterConfig(
        file=name,
        root_packages=tuple(root.strip() for root in roots if root.strip()),
        session=rest,
        contracts=contracts,
    )


# A section header as configparser reads one: the name runs to the line's last `]`.
_SECTION_HEADER = re.compile(r"^[ \t]*\[(.+)\]", re.MULTILINE)


def _section_lines(text: str) -> dict[str, int]:
    """The line of each section's header, in one pass over `text` (a search from the start
    for each section took time quadratic in the contracts)."""
    lines: dict[str, int] = {}
    line, counted_to = 1, 0
    for match in _SECTION_HEADER.finditer(text):
        line += text.count("\n", counted_to, match.start())
        counted_to = match.start()
        lines.setdefault(match.group(1), line)
    return lines


def _line_of(text: str, pattern: re.Pattern[str], default: int) -> int:
    match = pattern.search(text)
    return text.count("\n", 0, match.start()) + 1 if match else default


def _first_line(error: Exception) -> str:
    return str(error).splitlines()[0] if str(error) else type(error).__name__
