"""English plurals, as far as table names need them (INW016 orm-naming): whether the last word
of a snake_case name is a plural, its singular, and snake_case itself.

A heuristic, not a dictionary: a word is plural when it is a known irregular plural, or ends
in `s` and is none of the words and endings that end in `s` in the singular (`status`,
`address`, `analysis`, `physics`, `news`, ...). Mass nouns (`data`, `metadata`, `media`) are
never plural.
"""

from __future__ import annotations

import re

_IRREGULAR = {
    "people": "person",
    "men": "man",
    "women": "woman",
    "children": "child",
    "mice": "mouse",
    "geese": "goose",
    "teeth": "tooth",
    "feet": "foot",
    "criteria": "criterion",
    "phenomena": "phenomenon",
    "indices": "index",
    "matrices": "matrix",
    "vertices": "vertex",
    "appendices": "appendix",
    "analyses": "analysis",
    "crises": "crisis",
    "theses": "thesis",
    "diagnoses": "diagnosis",
    "syntheses": "synthesis",
    "lives": "life",
    "wives": "wife",
    "knives": "knife",
    "leaves": "leaf",
    "halves": "half",
    "shelves": "shelf",
    "wolves": "wolf",
    "selves": "self",
    "thieves": "thief",
    "calves": "calf",
    "loaves": "loaf",
    "shoes": "shoe",
    "toes": "toe",
    "canoes": "canoe",
    "movies": "movie",
    "cookies": "cookie",
    "zombies": "zombie",
    "species": "species",
    "series": "series",
}

# Words that end in `s` but are singular, the same in both numbers, or plural in form but
# naming one thing (`user_settings`: one row of settings per user).
_SINGULAR_IN_S = frozenset(
    {
        "alias", "atlas", "bias", "canvas", "chaos", "cosmos", "ethos", "kudos", "pathos",
        "lens", "news", "series", "species", "always", "this", "thus", "yes", "plus",
        "minus", "bus", "gas", "its", "has", "was", "sms", "dns", "gps", "os", "ios", "cms",
        "sys", "aws", "https", "iris", "tennis", "mars", "paris", "texas", "whereas",
        "perhaps", "various", "previous", "famous", "gross", "billiards", "measles",
        "mumps", "diabetes", "rabies", "herpes", "pants", "trousers", "scissors",
        "means", "thanks", "headquarters", "premises", "savings", "stats", "settings",
        "details", "credentials", "preferences",
    }
)  # fmt: skip
# Endings of singular words (status, address, analysis, physics, bonus).
_SINGULAR_ENDINGS = ("ss", "us", "is", "ics", "ous", "xis", "sis")
# Mass nouns: used in the singular whatever their form.
_MASS = frozenset({"data", "metadata", "media", "info", "staff"})

_SNAKE = re.compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)*")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def is_snake(name: str) -> bool:
    """Lower snake case: `order_line`, `user2`; not `OrderLine`, `order-line`, `_x`."""
    return _SNAKE.fullmatch(name) is not None


def snake_case(name: str) -> str:
    """`OrderLine` -> `order_line`, `HTTPLog` -> `http_log`, `order-line` -> `order_line`."""
    spaced = _CAMEL_BOUNDARY.sub("_", name.strip())
    parts = [part for part in re.split(r"[^A-Za-z0-9]+", spaced) if part]
    return "_".join(part.lower() for part in parts)


def last_word(name: str) -> str:
    return name.rsplit("_", 1)[-1]


def is_plural(word: str) -> bool:
    """Whether a lower-case word is an English plural (a heuristic; see the module)."""
    if word in _MASS or word in _SINGULAR_IN_S:
        return False
    if word in _IRREGULAR:
        return _IRREGULAR[word] != word
    if len(word) <= 3 or not word.endswith("s") or not word[:-1].isalpha():
        return False
    return not word.endswith(_SINGULAR_ENDINGS)


def singular(word: str) -> str:
    """The singular of a plural word (`categories` -> `category`, `boxes` -> `box`,
    `people` -> `person`); the word itself when it is no plural."""
    if not is_plural(word):
        return word
    if word in _IRREGULAR:
        return _IRREGULAR[word]
    if word.endswith("ies") and len(word) > 4:
        return word[:-3] + "y"
    if word.endswith(("sses", "shes", "ches", "xes", "zes", "oes")) or _s_stem(word):
        return word[:-2]
    return word[:-1]


def _s_stem(word: str) -> bool:
    """A plural in `es` of a singular that ends in `s` (`aliases`, `statuses`, `buses`),
    not of one that ends in `se` (`houses`, `causes`, `purchases`)."""
    if not word.endswith("ses"):
        return False
    stem = word[:-2]
    if stem in _SINGULAR_IN_S:
        return True
    return len(stem) > 3 and stem.endswith(("us", "is")) and not stem.endswith(("ous", "aus"))


def singular_name(name: str) -> str:
    """A snake_case name with its last word in the singular (`order_lines` -> `order_line`)."""
    head, _, last = name.rpartition("_")
    found = singular(last)
    return f"{head}_{found}" if head else found
