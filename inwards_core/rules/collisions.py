"""The collision policy (`[tool.inwards] on-collision`): a project definition that
replaces a user definition of the same code with another intent.

A project rule in force over a user rule is ordinary shadowing; it is a **collision** when
the two disagree on what the rule is: another check kind, a user rule that is stricter (an
error where the project's is a warning, on by default where the project's is opt-in), or,
for a code no installed family owns (a team's own prefix), another name. The project's
definition stays in force; the policy decides what the user is told: "warn" (a warning
line), "error" (a blocking problem of the project file: exit 2), "ignore" (nothing;
`inwards status` still lists it). Options and guidance may differ freely: that is what a
shadow is for. Pure: the resolver calls `collision_between` for each pair.
"""

from __future__ import annotations

import attrs

from inwards_core.config.load import ON_COLLISION_VALUES
from inwards_core.model.findings import Origin, RootKind, Severity
from inwards_core.model.value_repr import value_repr
from inwards_core.rules.definitions import DefinitionProblem, RuleDefinition

ON_COLLISION_POLICIES = ON_COLLISION_VALUES  # what `[tool.inwards] on-collision` accepts

# The reasons, in the order they are reported; each is the definition key it is about.
COLLISION_REASONS = ("check", "severity", "default", "name")


@attrs.frozen
class Collision:
    """A project definition (in force) over a user definition of the same code with
    another intent. `reasons` are definition keys (`check`, `severity`, `default`,
    `name`); `details` say each one's two values; `policy` is the `on-collision` in force."""

    __repr__ = value_repr

    code: str
    project: Origin
    user: Origin
    reasons: tuple[str, ...]
    details: tuple[str, ...]
    policy: str

    def summary(self) -> str:
        """`collides with the user definition PATH (check: user "a", project "b")`."""
        return f"collides with the user definition {self.user.path} ({'; '.join(self.details)})"

    def warning(self) -> str:
        """The warning line of the "warn" policy."""
        return (
            f"{self.project.path}: {self.code} {self.summary()}; the project's definition is "
            'in force (set [tool.inwards] on-collision = "ignore" to silence this, or '
            '"error" to stop on it).'
        )


def collision_between(
    project: RuleDefinition,
    user: RuleDefinition,
    *,
    unowned: bool,
    user_rules: str,
    policy: str,
) -> Collision | None:
    """The collision of `project` (in force) over `user` directly below it, if they
    collide. `unowned`: no installed family owns the code's prefix, so a name difference
    is a collision rather than a broken shadow. Under `user-rules = "guidance-only"` only
    the name counts: the user's kind, severity and default never apply there anyway."""
    pairs: list[tuple[str, str, str]] = []
    if user_rules == "on":
        if project.check != user.check:
            pairs.append(("check", user.check, project.check))
        if user.severity is Severity.ERROR and project.severity is Severity.WARNING:
            pairs.append(("severity", user.severity.value, project.severity.value))
        if user.default == "on" and project.default == "opt-in":
            pairs.append(("default", user.default, project.default))
    if unowned and project.name != user.name:
        pairs.append(("name", user.name, project.name))
    if not pairs:
        return None
    return Collision(
        code=project.code,
        project=project.origin,
        user=user.origin,
        reasons=tuple(key for key, _, _ in pairs),
        details=tuple(f'{key}: user "{mine}", project "{theirs}"' for key, mine, theirs in pairs),
        policy=policy,
    )


def name_collision(shadow: RuleDefinition, below: RuleDefinition, *, unowned: bool) -> bool:
    """Whether `shadow`'s other name than `below`'s is left to the collision policy (a
    project definition over a user one of a code no family owns) instead of breaking it."""
    return unowned and shadow.origin.root is RootKind.PROJECT and below.origin.root is RootKind.USER


def collision_problem(collision: Collision, project: RuleDefinition) -> DefinitionProblem:
    """The blocking problem of the "error" policy, on the project file at the line of the
    first reason's key (else its code)."""
    key = collision.reasons[0]
    line = project.key_lines.get(key) or project.key_lines.get("code")
    return DefinitionProblem(
        RootKind.PROJECT,
        collision.project.path,
        line,
        key,
        f"{collision.code} {collision.summary()}, and [tool.inwards] on-collision is "
        '"error". Make the two definitions agree, give one of them another code, or set '
        'on-collision = "warn" to let the project\'s win with a warning.',
    )
