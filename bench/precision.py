"""Sample an opt-in rule's findings on real corpora and tally the hand judgements of them.

Issue 13 asks each opt-in rule for its precision on code nobody here wrote: the findings of
one rule over all corpora, a deterministic random sample of up to 20 of them, each judged by
hand as right or wrong with one line of reasoning, and the share judged right. Issue 23 judges
the rules again on fresh samples: a named round draws its own sample (of ``--size`` findings)
and keeps its judgements in a directory of its own, so the earlier rounds stay as recorded.

Input: the documents of ``inwards check --format json`` (``inwards/diagnostics@1``), one per
corpus. A document's corpus is named with ``--corpus NAME=FILE.json``; a file given with
``--findings`` is named after its file name up to the first dot (``django.json`` and
``django.INW012.json`` are both the corpus ``django``), so corpus names hold no dot.

The sample: the rule's findings sorted by (corpus, file, line, column, message), then
``random.Random(int(sha256(b"inwards-precision/" + CODE).hexdigest(), 16)).sample(findings,
min(20, n))``, shown in sorted order. Same findings, same sample, whatever the order of the
inputs; a changed rule changes its findings and so the sample (the report records the commit).
``--size N`` draws ``min(N, n)`` instead of ``min(20, n)``. ``--round NAME`` folds the round's
name into the seed, ``sha256(b"inwards-precision/round/" + NAME + b"/" + CODE)``, so the
round's sample is a new draw, independent of the first round's; without it (the first round)
the seed and so every recorded sample are as they were.

Judgements: ``bench/precision/judgements/<CODE>.tsv``, one per line, five tab-separated fields
``corpus  file:line  digest  right|wrong  reason``, where digest is the first 12 hex digits
of the sha256 of the finding's message; lines starting with ``#`` and blank lines are
skipped. A judgement applies to a finding while its (corpus, file:line, digest) still
matches, so a changed message needs judging again. A round's judgements are in
``bench/precision/judgements/<NAME>/<CODE>.tsv`` unless ``--judgements DIR`` says otherwise.

usage: python bench/precision.py sample --rule CODE [--findings FILE.json ...]
           [--corpus NAME=FILE.json ...] [--root DIR] [--judgements DIR]
           [--size N] [--round NAME]
       python bench/precision.py report --rule CODE [--rule CODE ...] (same inputs)
``--root DIR`` is the directory holding each corpus's copy as ``DIR/<corpus>/``
(``bench/out/precision``): the file of a finding is relative to it, and ``sample`` shows the
finding's source line from there.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import subprocess
import sys
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

import attrs

BENCH_DIR = Path(__file__).resolve().parent
JUDGEMENTS_DIR = BENCH_DIR / "precision" / "judgements"
SAMPLE_SIZE = 20
SEED_PREFIX = b"inwards-precision/"
ROUND_SEED_PREFIX = SEED_PREFIX + b"round/"
_ROUND_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_-]*")  # also a directory name
DIAGNOSTICS_SCHEMA = "inwards/diagnostics@1"
VERDICTS = ("right", "wrong")
DIGEST_LENGTH = 12
TSV_FIELDS = 5
_DIGEST = re.compile(r"[0-9a-f]{12}")
_LOCATION = re.compile(r".+:[1-9][0-9]*")


class PrecisionError(Exception):
    """An input the tool cannot use: a bad findings document or judgements file."""


@attrs.frozen(order=True)
class Finding:
    """One finding of the rule in one corpus; ordered by the sort the sample starts from."""

    corpus: str
    file: str
    line: int
    column: int
    message: str

    @property
    def location(self) -> str:
        return f"{self.file}:{self.line}"

    @property
    def digest(self) -> str:
        return message_digest(self.message)

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.corpus, self.location, self.digest)


@attrs.frozen
class Judgement:
    corpus: str
    location: str  # file:line
    digest: str
    verdict: str  # right | wrong
    reason: str

    @property
    def key(self) -> tuple[str, str, str]:
        return (self.corpus, self.location, self.digest)


@attrs.frozen
class Tally:
    """One rule's row of the precision table."""

    code: str
    findings: int
    sampled: int
    right: int
    wrong: int

    @property
    def judged(self) -> int:
        return self.right + self.wrong

    @property
    def precision(self) -> str:
        """right / judged as a percentage with one decimal; a dash when nothing is judged."""
        if self.judged == 0:
            return "–"
        return f"{100 * self.right / self.judged:.1f}%"


def message_digest(message: str) -> str:
    return hashlib.sha256(message.encode("utf-8")).hexdigest()[:DIGEST_LENGTH]


def corpus_of(path: Path) -> str:
    """The corpus a findings file is named after: its file name up to the first dot."""
    return path.name.split(".", 1)[0]


def load_findings(path: Path, corpus: str, code: str) -> list[Finding]:
    """The findings of rule ``code`` in one ``inwards check --format json`` document."""
    try:
        document = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise PrecisionError(f"{path}: not a readable JSON document: {error}") from error
    if not isinstance(document, dict) or document.get("schema") != DIAGNOSTICS_SCHEMA:
        raise PrecisionError(f"{path}: not an {DIAGNOSTICS_SCHEMA} document")
    found = []
    for number, item in enumerate(document.get("diagnostics", []), start=1):
        if not isinstance(item, dict) or item.get("code") != code:
            continue
        try:
            found.append(
                Finding(
                    corpus,
                    str(item["file"]),
                    int(item["line"]),
                    int(item["column"]),
                    str(item["message"]),
                )
            )
        except (KeyError, TypeError, ValueError) as error:
            raise PrecisionError(f"{path}: diagnostic {number} lacks {error}") from error
    return found


def gather(sources: Iterable[tuple[str, Path]], code: str) -> list[Finding]:
    """Every finding of ``code`` over the (corpus, file) sources, sorted."""
    return sorted(f for corpus, path in sources for f in load_findings(path, corpus, code))


def sample_seed(code: str, round_name: str = "") -> int:
    """The seed of a rule's sample: the rule's code alone for the first round (its recorded
    samples depend on it), the round's name and the code for a named round."""
    if not round_name:
        material = SEED_PREFIX + code.encode("ascii")
    else:
        material = ROUND_SEED_PREFIX + round_name.encode("ascii") + b"/" + code.encode("ascii")
    return int(hashlib.sha256(material).hexdigest(), 16)


def sample(
    findings: Sequence[Finding], code: str, size: int = SAMPLE_SIZE, round_name: str = ""
) -> list[Finding]:
    """The deterministic sample of up to ``size`` findings, in sorted order."""
    ordered = sorted(findings)
    chosen = random.Random(sample_seed(code, round_name)).sample(ordered, min(size, len(ordered)))
    return sorted(chosen)


def judgements_path(directory: Path, code: str) -> Path:
    return directory / f"{code}.tsv"


def round_judgements_dir(round_name: str) -> Path:
    """Where a named round keeps its judgements, beside the first round's files."""
    return JUDGEMENTS_DIR / round_name


def _field_error(source: str, number: int, line: str, index: int, what: str) -> PrecisionError:
    """An error at the start of tab-separated field ``index`` (past the end when missing)."""
    fields = line.split("\t")
    column = sum(len(field) + 1 for field in fields[:index]) + 1
    return PrecisionError(f"{source}:{number}:{min(column, len(line) + 1)}: {what}")


def parse_judgement(line: str, number: int, source: str) -> Judgement:
    """One TSV line as a judgement; a malformed one raises naming file:line:column."""
    fields = line.split("\t")
    if len(fields) != TSV_FIELDS:
        raise _field_error(
            source,
            number,
            line,
            min(len(fields), TSV_FIELDS),
            f"expected {TSV_FIELDS} tab-separated fields "
            f"(corpus, file:line, digest, right|wrong, reason), found {len(fields)}",
        )
    corpus, location, digest, verdict, reason = fields
    problems = (
        (not corpus, "empty corpus"),
        (not _LOCATION.fullmatch(location), f"expected file:line, found {location!r}"),
        (
            not _DIGEST.fullmatch(digest),
            f"expected {DIGEST_LENGTH} lowercase hex digits, found {digest!r}",
        ),
        (verdict not in VERDICTS, f"expected right or wrong, found {verdict!r}"),
        (not reason.strip(), "empty reason: give one line of reasoning"),
    )
    for index, (bad, what) in enumerate(problems):
        if bad:
            raise _field_error(source, number, line, index, what)
    return Judgement(corpus, location, digest, verdict, reason.strip())


def parse_judgements(text: str, source: str) -> dict[tuple[str, str, str], Judgement]:
    """The judgements of one TSV file, by (corpus, file:line, digest); ``#`` lines and blank
    lines are skipped."""
    judgements: dict[tuple[str, str, str], Judgement] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not line.strip() or line.startswith("#"):
            continue
        judgement = parse_judgement(line, number, source)
        if judgement.key in judgements:
            raise _field_error(
                source, number, line, 0, f"a second judgement of {' '.join(judgement.key)}"
            )
        judgements[judgement.key] = judgement
    return judgements


def read_judgements(directory: Path, code: str) -> dict[tuple[str, str, str], Judgement]:
    path = judgements_path(directory, code)
    if not path.is_file():
        return {}
    return parse_judgements(path.read_text(encoding="utf-8"), str(path))


def tally(
    code: str,
    findings: Sequence[Finding],
    judgements: Mapping[tuple[str, str, str], Judgement],
    chosen: Sequence[Finding] | None = None,
) -> Tally:
    """The rule's row; ``chosen`` is its sample when not the first round's of 20."""
    if chosen is None:
        chosen = sample(findings, code)
    verdicts = [judgements[f.key].verdict for f in chosen if f.key in judgements]
    return Tally(code, len(findings), len(chosen), verdicts.count("right"), verdicts.count("wrong"))


def source_line(root: Path | None, finding: Finding) -> str | None:
    """The finding's line in the corpus copy under ``root``, when it can be read."""
    if root is None:
        return None
    try:
        lines = (root / finding.corpus / finding.file).read_text(encoding="utf-8").splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    return lines[finding.line - 1].strip() if 0 < finding.line <= len(lines) else None


def render_sample(
    code: str,
    findings: Sequence[Finding],
    judgements: Mapping[tuple[str, str, str], Judgement],
    root: Path | None,
    chosen: Sequence[Finding] | None = None,
) -> str:
    """The sample, each finding with its source line and its judgement, then the unjudged
    ones as TSV lines to complete (verdict and reason); ``chosen`` as for ``tally``."""
    if chosen is None:
        chosen = sample(findings, code)
    out = [f"{code}: {len(findings)} findings, {len(chosen)} sampled"]
    unjudged = []
    for index, finding in enumerate(chosen, start=1):
        judgement = judgements.get(finding.key)
        status = f"{judgement.verdict}: {judgement.reason}" if judgement else "unjudged"
        out.append(
            f"{index:2}. {finding.corpus} {finding.location}:{finding.column}"
            f" [{finding.digest}] {status}"
        )
        out.append(f"    {finding.message}")
        line = source_line(root, finding)
        if line is not None:
            out.append(f"    | {line}")
        if judgement is None:
            unjudged.append(finding)
    out.append(f"{len(unjudged)} unjudged")
    out.extend(f"{f.corpus}\t{f.location}\t{f.digest}\tright|wrong\treason" for f in unjudged)
    # A judgement of a finding that moved, changed or left the sample no longer counts.
    sampled = {finding.key for finding in chosen}
    stale = [j for key, j in sorted(judgements.items()) if key not in sampled]
    if stale:
        out.append(f"{len(stale)} judgements match no sampled finding (stale, not counted):")
        out.extend(f"  {j.corpus} {j.location} [{j.digest}] {j.verdict}" for j in stale)
    return "\n".join(out) + "\n"


def render_report(
    tallies: Sequence[Tally],
    details: Mapping[str, Sequence[tuple[Finding, Judgement | None]]],
    commit: str,
) -> str:
    """The Markdown for docs/benchmarks.md: the table, then each rule's judged sample."""
    out = [
        "| rule | findings | sampled | judged | right | wrong | precision | commit |",
        "|---|---|---|---|---|---|---|---|",
    ]
    out.extend(
        f"| {t.code} | {t.findings:,} | {t.sampled} | {t.judged} | {t.right} | {t.wrong}"
        f" | {t.precision} | {commit} |"
        for t in tallies
    )
    for t in tallies:
        rows = details.get(t.code, ())
        if not rows:
            continue
        out += ["", f"{t.code}'s sample:", ""]
        for finding, judgement in rows:
            verdict = f"{judgement.verdict}: {judgement.reason}" if judgement else "unjudged"
            out.append(f"- {finding.corpus} `{finding.location}`: {verdict}")
    return "\n".join(out) + "\n"


def current_commit() -> str:
    try:
        done = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=BENCH_DIR,
            capture_output=True,
            text=True,
            check=True,
        )
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return done.stdout.strip()


def sources_of(args: argparse.Namespace) -> list[tuple[str, Path]]:
    sources = [(corpus_of(Path(path)), Path(path)) for path in args.findings]
    for entry in args.corpus:
        name, separator, path = entry.partition("=")
        if not separator or not name or not path:
            raise PrecisionError(f"--corpus {entry!r}: expected NAME=FILE.json")
        sources.append((name, Path(path)))
    if not sources:
        raise PrecisionError("no findings: give --findings FILE.json or --corpus NAME=FILE.json")
    return sources


def parse_arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    for name, help_text in (
        ("sample", "show the sample of one rule, its judgements and the unjudged findings"),
        ("report", "print the Markdown precision table of the rules"),
    ):
        command = commands.add_parser(name, help=help_text)
        command.add_argument("--rule", action="append", required=True, metavar="CODE")
        command.add_argument("--findings", nargs="+", default=[], metavar="FILE.json")
        command.add_argument("--corpus", action="append", default=[], metavar="NAME=FILE.json")
        command.add_argument(
            "--judgements",
            type=Path,
            metavar="DIR",
            help="the judgements directory (default: bench/precision/judgements, and its "
            "subdirectory NAME with --round NAME)",
        )
        command.add_argument("--root", type=Path, metavar="DIR")
        command.add_argument(
            "--size",
            type=_positive,
            default=SAMPLE_SIZE,
            metavar="N",
            help=f"findings drawn per rule (default {SAMPLE_SIZE})",
        )
        command.add_argument(
            "--round",
            dest="round_name",
            type=_round_name,
            metavar="NAME",
            help="a named round of judging: its name is folded into the seed",
        )
    args = parser.parse_args(argv)
    args.round_name = args.round_name or ""  # the first round has no name
    if args.judgements is None:
        args.judgements = (
            round_judgements_dir(args.round_name) if args.round_name else JUDGEMENTS_DIR
        )
    return args


def _positive(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = 0
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, found {text!r}")
    return value


def _round_name(text: str) -> str:
    if not _ROUND_NAME.fullmatch(text):
        raise argparse.ArgumentTypeError(
            f"expected letters, digits, '-' or '_' (a directory name), found {text!r}"
        )
    return text


def run(args: argparse.Namespace) -> str:
    sources = sources_of(args)
    outputs = []
    tallies = []
    details = {}
    for code in args.rule:
        findings = gather(sources, code)
        judgements = read_judgements(args.judgements, code)
        chosen = sample(findings, code, args.size, args.round_name)
        if args.command == "sample":
            outputs.append(render_sample(code, findings, judgements, args.root, chosen))
            continue
        tallies.append(tally(code, findings, judgements, chosen))
        details[code] = [(f, judgements.get(f.key)) for f in chosen]
    if args.command == "report":
        outputs.append(render_report(tallies, details, current_commit()))
    return "\n".join(outputs)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_arguments(argv)
    try:
        sys.stdout.write(run(args))
    except PrecisionError as error:
        print(f"precision: {error}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
