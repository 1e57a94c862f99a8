"""Templates expanded: `template = "<name>"` on a layer, context or shape entry, rewritten
into the entries a user could write by hand, before any other part of the loader reads
`[tool.inwards]`. Everything after (the readers, `rules`, `status`, the baseline, reports)
sees only the expanded form.

- A layer entry becomes one layer per role, innermost first, named `<entry>.<role>` and
  owning `<module>.<role>` for each of its modules, with the entry's other keys (library
  lists); the roles of one `"a | b"` entry are siblings.
- A context entry gains `<module>.<public>` for each of its modules and each of the
  template's `public` entries, after its own `public`.
- A shape entry takes each of `allow`, `require`, `forbid`, `extra` and `hints` it doesn't
  set itself from the template; an `allow` taken so gains the first segment of each role.
- The `rules` of a template used by layers become `TemplateRule`s (`template_rules.py`).

An expanded entry keeps pointing at the file: `ExpandedPositions` maps each expanded key
to the key it came from (a role layer to its entry, a copied value to the template's key),
and problems name that key. The expansion is linear in what it writes, and it writes at
most `MAX_EXPANDED_ENTRIES` strings, however the templates multiply.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import attrs

from inwards_core.config.dotted_keys import Path, parse_dotted_key, render_key
from inwards_core.config.feature_values import TemplateRule
from inwards_core.config.problems import PREFIX, ProblemCollector, closest, type_name
from inwards_core.config.template_reading import Template, read_templates
from inwards_core.config.template_rules import RuleGatherer
from inwards_core.config.template_use import TEMPLATE, uses_templates
from inwards_core.config.values import Config, SourcePositions

MAX_EXPANDED_ENTRIES = 10_000
"""How many strings (module prefixes of role layers, public modules, shape members, modules
of template rules) the templates of one configuration may write. A real one writes a few
hundred; a template of many roles used by many entries of many modules would otherwise
multiply into millions."""

_ROOT: Path = ("tool", "inwards")


def _same_key(key: str) -> str:
    return key


@attrs.frozen
class Expansion:
    """The table with every template expanded, where its keys stand in the file, the key in
    the file of an expanded key (for messages), and the rules templates turn on."""

    table: Any
    positions: SourcePositions
    key_in_file: Callable[[str], str] = _same_key
    rules: tuple[TemplateRule, ...] = ()

    def applied_to(self, config: Config) -> Config:
        """`config` (read from `table`) with the rules templates turn on, and the positions
        of the expanded keys for what locates them later (INW006 on a role layer)."""
        if not self.rules and self.positions is config.positions:
            return config
        rules = attrs.evolve(config.rules, templates=self.rules)
        return attrs.evolve(config, rules=rules, positions=self.positions)


class ExpandedPositions:
    """The positions of the file, for the keys of the expanded table."""

    def __init__(self, inner: SourcePositions, moves: Mapping[Path, Path]) -> None:
        self._inner = inner
        self._moves = moves

    def locate(self, key: str) -> tuple[int, int] | None:
        return self._inner.locate(self.key_in_file(key))

    def key_in_file(self, key: str) -> str:
        """The key of the file that `key` of the expanded table came from: the longest
        prefix of it that moved, followed by the rest."""
        path = parse_dotted_key(key)
        for end in range(len(path), 0, -1):
            target = self._moves.get(path[:end])
            if target is not None:
                return render_key(target + path[end:])
        return key


def expand_templates(table: Any, problems: ProblemCollector) -> Expansion:
    """`table` with its templates expanded (and `templates` removed), every problem added
    to `problems` at the key of the file it is about."""
    if not isinstance(table, Mapping) or not uses_templates(table):
        return Expansion(table, problems.positions)
    templates = read_templates(problems, table.get("templates"))
    expander = _Expander(problems, templates, table.get("rules"))
    expanded = {name: value for name, value in table.items() if name != "templates"}
    if "layers" in table:
        expanded["layers"] = expander.layers(table["layers"])
    if "contexts" in table:
        expanded["contexts"] = expander.entries(table["contexts"], "contexts", expander.context)
    if "shape" in table:
        expanded["shape"] = expander.entries(table["shape"], "shape", expander.shape)
    expander.check_unused_rules()
    positions = ExpandedPositions(problems.positions, expander.moves)
    return Expansion(expanded, positions, positions.key_in_file, expander.rules.rules())


def _without_template(entry: Mapping[str, Any]) -> dict[str, Any]:
    return {name: value for name, value in entry.items() if name != TEMPLATE}


def _below(module: Any, role: str) -> Any:
    """`module.role`; a value that is not a string stays, for the reader to refuse."""
    return f"{module}.{role}" if isinstance(module, str) else module


class _Expander:
    def __init__(
        self, problems: ProblemCollector, templates: Mapping[str, Template], user_rules: Any
    ) -> None:
        self.problems = problems
        self.templates = templates
        self.moves: dict[Path, Path] = {}
        self.rules = RuleGatherer(problems, user_rules)
        self._used_by_layers: set[str] = set()
        self._left = MAX_EXPANDED_ENTRIES
        self._over = False

    # -- what every kind of entry shares --------------------------------------------------

    def template_of(self, entry: Mapping[str, Any], key: str) -> Template | None:
        """The template `entry` names; None when it names none (or a problem was added)."""
        if TEMPLATE not in entry:
            return None
        name = entry[TEMPLATE]
        template_key = f"{key}.{TEMPLATE}"
        if not isinstance(name, str):
            self.problems.add(
                template_key,
                f'must be the name of a template, such as "slice", not {type_name(name)}.',
            )
            return None
        template = self.templates.get(name)
        if template is None:
            self.problems.add(template_key, self._unknown(name))
        return template

    def _unknown(self, name: str) -> str:
        if not self.templates:
            return (
                f'names template "{name}", but there is none: define it as '
                f"[{PREFIX}.templates.{name}]."
            )
        names = tuple(self.templates)
        hint = closest(name, names)
        suggestion = f' Did you mean "{hint}"?' if hint else ""
        listed = ", ".join(f'"{n}"' for n in names)
        return f'names template "{name}", which is not defined. Templates: {listed}.{suggestion}'

    def spend(self, count: int, key: str) -> bool:
        """Whether `count` more strings fit in the limit (once over it, none do)."""
        if not self._over and count <= self._left:
            self._left -= count
            return True
        if not self._over:
            self._over = True
            self.problems.add(
                key,
                f"would make the templates write more than {MAX_EXPANDED_ENTRIES:,} module "
                "entries, members and rule modules in all, more than inwards expands. Use "
                "fewer roles or modules per templated entry, or write some entries out.",
            )
        return False

    def move(self, expanded: Path, original: Path) -> None:
        if expanded != original:
            self.moves[expanded] = original

    def entries(
        self,
        value: Any,
        name: str,
        expand: Callable[[Mapping[str, Any], Template, int], dict[str, Any]],
    ) -> Any:
        """`value` (the `contexts` or `shape` array) with each templated entry expanded."""
        if not isinstance(value, list | tuple):
            return value
        expanded: list[Any] = []
        for index, entry in enumerate(value):
            if isinstance(entry, Mapping) and TEMPLATE in entry:
                template = self.template_of(entry, f"{PREFIX}.{name}[{index}]")
                entry = (
                    _without_template(entry) if template is None else expand(entry, template, index)
                )
            expanded.append(entry)
        return expanded

    # -- layers -----------------------------------------------------------------------

    def layers(self, value: Any) -> Any:
        if not isinstance(value, list | tuple):
            return value
        expanded: list[Any] = []
        for index, element in enumerate(value):
            original = (*_ROOT, "layers", index)
            ranks = self._layer(element, index) if isinstance(element, Mapping) else None
            if ranks is None:
                self.move((*_ROOT, "layers", len(expanded)), original)
                expanded.append(self._untemplated(element, index))
                continue
            for rank in ranks:
                at = (*_ROOT, "layers", len(expanded))
                self.move(at, original)
                if isinstance(rank, list):
                    for sibling in range(len(rank)):
                        self.move((*at, sibling), original)
                expanded.append(rank)
        return expanded

    def _untemplated(self, element: Any, index: int) -> Any:
        if isinstance(element, Mapping):
            return _without_template(element)
        if not isinstance(element, list | tuple):
            return element
        group: list[Any] = []
        for position, sibling in enumerate(element):
            if isinstance(sibling, Mapping) and TEMPLATE in sibling:
                self.problems.add(
                    f"{PREFIX}.layers[{index}][{position}].{TEMPLATE}",
                    "can't be used by a layer in a group of siblings: a template makes layers "
                    "of their own ranks. Write this layer on its own in `layers`; roles "
                    'written "a | b" in the template are siblings.',
                )
                sibling = _without_template(sibling)
            group.append(sibling)
        return group

    def _layer(self, entry: Mapping[str, Any], index: int) -> list[Any] | None:
        """The ranks a templated layer entry becomes; None to keep it as it is."""
        key = f"{PREFIX}.layers[{index}]"
        template = self.template_of(entry, key)
        if template is None:
            return None
        self._used_by_layers.add(template.name)
        if template.ranks is None:
            if "roles" not in template.given:
                self.problems.add(
                    f"{key}.{TEMPLATE}",
                    f'names template "{template.name}", which has no `roles`, so it makes no '
                    f"layers. List them, innermost first, in {template.sub_key('roles')}.",
                )
            return None
        name, modules = entry.get("name"), entry.get("modules")
        if not isinstance(name, str) or not name.strip() or not isinstance(modules, list | tuple):
            return None  # the layers reader says what is wrong with the entry
        roles = sum(len(rank) for rank in template.ranks)
        written = (roles + len(template.rules)) * max(len(modules), 1)
        if not self.spend(written, f"{key}.{TEMPLATE}"):
            return None
        rest = {k: v for k, v in entry.items() if k not in ("name", "modules", TEMPLATE)}

        def role_layer(role: str) -> dict[str, Any]:
            return {"name": f"{name}.{role}", "modules": [_below(m, role) for m in modules], **rest}

        for rule in template.rules:
            self.rules.add(rule, [f"{m}.{rule.role}" for m in modules if isinstance(m, str)])
        ranks: list[Any] = []
        for rank in template.ranks:
            layers = [role_layer(role) for role in rank]
            ranks.append(layers[0] if len(layers) == 1 else layers)
        return ranks

    def check_unused_rules(self) -> None:
        for template in self.templates.values():
            if template.has_rules and template.name not in self._used_by_layers:
                self.problems.add(
                    template.sub_key("rules"),
                    f'turns rules on for the roles of template "{template.name}", but no layer '
                    "uses the template, so its roles own no modules. Add "
                    f'template = "{template.name}" to an entry of `layers`, or remove the rules.',
                )

    # -- contexts and shapes --------------------------------------------------------------

    def context(self, entry: Mapping[str, Any], template: Template, index: int) -> dict[str, Any]:
        expanded = _without_template(entry)
        key = f"{PREFIX}.contexts[{index}]"
        if template.public is None:
            if "public" not in template.given:
                self.problems.add(
                    f"{key}.{TEMPLATE}",
                    f'names template "{template.name}", which has no `public`, so it says '
                    "nothing about this context. List the public modules below each of its "
                    f'modules, such as ["api"], in {template.sub_key("public")}.',
                )
            return expanded
        modules, own = entry.get("modules"), entry.get("public", [])
        if not isinstance(modules, list | tuple) or not isinstance(own, list | tuple):
            return expanded  # the contexts reader says what is wrong with the entry
        prefixes = [module for module in modules if isinstance(module, str)]
        if not self.spend(len(prefixes) * len(template.public), f"{key}.{TEMPLATE}"):
            return expanded
        public = list(own)
        for prefix in prefixes:
            for position, below in enumerate(template.public):
                self.move(
                    (*_ROOT, "contexts", index, "public", len(public)),
                    (*_ROOT, "templates", template.name, "public", position),
                )
                public.append(f"{prefix}.{below}")
        expanded["public"] = public
        return expanded

    def shape(self, entry: Mapping[str, Any], template: Template, index: int) -> dict[str, Any]:
        expanded = _without_template(entry)
        at: Path = (*_ROOT, "shape", index)
        source: Path = (*_ROOT, "templates", template.name)
        for name, value in template.shape.items():
            if name in entry:
                continue  # the entry's own value wins
            self.move((*at, name), (*source, name))
            if name == "allow":
                value = self._allow(template, value, at, source)
                if value is None:
                    continue
            expanded[name] = value
        return expanded

    def _allow(
        self, template: Template, allow: list[str], at: Path, source: Path
    ) -> list[str] | None:
        """The template's `allow` and the first segment of each of its roles."""
        members = list(allow)
        for position, rank in enumerate(template.ranks or ()):
            for role in rank:
                first = role.split(".", 1)[0]
                if first not in members:
                    self.move((*at, "allow", len(members)), (*source, "roles", position))
                    members.append(first)
        if not self.spend(len(members), render_key(at) + f".{TEMPLATE}"):
            return None
        return members
