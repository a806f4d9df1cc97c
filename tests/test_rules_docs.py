"""The rules' section numbers stay honest: every § that paiju and its docs cite exists.

The code cites the rules by section (``rules §7``, ``Ma Diao §4.6``, ``§3.4–§4.6``) in
docstrings, comments and messages; the docs do in prose. The rules are
``docs/rules/mazhan.md`` and ``docs/rules/madiao.md``. A section there is a heading
``## N. Title`` or ``### N.M Title``, or a numbered item ``M.`` written straight under
``## N.`` (before any ``###`` heading): Mazhan's §3.5 and §5.6, Ma Diao's §6.7 are items.

Scanned: every ``.py`` file under ``paiju/`` (all of it: a message like ``"Ma Diao rules
§7"`` is a citation too), every ``.md`` file under ``docs/``, and ``README.md``.

Which game a citation means is decided simply, the first rule that applies winning:

1. a § that is the text of a Markdown link to a rules file cites that file;
2. in a Markdown file with numbered sections of its own (``docs/env.md``, the rules files
   themselves), any other § cites the file's own section;
3. the nearest game name before the § on its line: "Mazhan" (馬站) or "Ma Diao", "madiao"
   (馬吊, 馬弔), in any case, so "(Mazhan rules, end of §5; Ma Diao §3)" cites one of each;
4. the file: a path holding ``madiao``, or in Markdown the nearest heading above the line
   naming Ma Diao (``## Ma Diao``, ``#### `MadiaoPenalty```), cites Ma Diao;
5. anything else cites Mazhan.

:data:`ALLOW` names the few citations these rules read wrong, with what they mean.

The links into the rules and into ``docs/rules-decisions.md`` must land on a heading or an
explicit anchor (GitHub's heading slugs), and every test a rules file names must exist.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
RULES = ROOT / "docs" / "rules"
GAMES = {"mazhan": RULES / "mazhan.md", "madiao": RULES / "madiao.md"}

#: Citations the rules above read wrong: (path, a piece of the line) → the game they cite.
ALLOW: dict[tuple[str, str], str] = {
    # the help text of `paiju madiao chong`: the command's name is lines away
    ("paiju/madiao/game.py", '"captured": {...}} (rules §7)'): "madiao",
}

CITE = re.compile(r"§\s?(\d+(?:\.\d+)?)")
GAME_NAME = re.compile(r"mazhan|馬站|ma ?diao|馬吊|馬弔", re.IGNORECASE)
HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
SECTION = re.compile(r"^##\s+(\d+)\.?\s")
SUBSECTION = re.compile(r"^###\s+(\d+\.\d+)\.?\s")
ITEM = re.compile(r"^(\d+)\.\s")
# a Markdown link: [text](target)
LINK = re.compile(r"\[([^\]]*)\]\(([^)\s]+)\)")
ANCHOR = re.compile(r"""<a\s+(?:id|name)=["']([^"']+)["']""")
TEST_REF = re.compile(r"(tests/[\w/]+\.py)(?:::(\w+)(?:\[[^\]]*\])?)?")


@dataclass(frozen=True)
class Citation:
    """One § in one line of one file, and the file whose section it names."""

    path: str
    line: int
    text: str
    section: str
    target: Path


def sections(path: Path) -> set[str]:
    """The section numbers a Markdown file defines: ``## N.`` and ``### N.M`` headings, and
    the numbered items ``M.`` straight under ``## N.`` before any ``###`` heading.

    >>> sorted(sections(GAMES["mazhan"]), key=lambda s: [int(x) for x in s.split(".")])[:3]
    ['1', '2', '3']
    """
    found: set[str] = set()
    current: str | None = None
    in_sub = False
    fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        if fence:
            continue
        if m := SECTION.match(line):
            current, in_sub = m.group(1), False
            found.add(current)
        elif m := SUBSECTION.match(line):
            found.add(m.group(1))
            in_sub = True
        elif h := HEADING.match(line):
            if len(h.group(1)) <= 2:  # a section without a number ends the one before
                current = None
            in_sub = True
        elif current is not None and not in_sub and (m := ITEM.match(line)):
            found.add(f"{current}.{m.group(1)}")
    return found


def _scanned() -> Iterator[Path]:
    yield from sorted((ROOT / "paiju").rglob("*.py"))
    yield from sorted((ROOT / "docs").rglob("*.md"))
    yield ROOT / "README.md"


def _rules_file(target: str, source: Path) -> Path | None:
    """The rules file a link target points into, if it does."""
    resolved = (source.parent / target.split("#", 1)[0]).resolve()
    return resolved if resolved in GAMES.values() else None


def _linked(line: str, source: Path) -> list[tuple[int, int, Path]]:
    """The spans of the line's link texts that point into a rules file, with the file."""
    out = []
    for m in LINK.finditer(line):
        target = _rules_file(m.group(2), source)
        if target is not None:
            out.append((m.start(1), m.end(1), target))
    return out


def citations() -> Iterator[Citation]:
    """Every § cited in the scanned files, each with the file it names a section of."""
    for path in _scanned():
        rel = path.relative_to(ROOT).as_posix()
        lines = path.read_text(encoding="utf-8").splitlines()
        markdown = path.suffix == ".md"
        own = markdown and any(SECTION.match(line) for line in lines)
        heading = ""
        fence = False
        for n, line in enumerate(lines, 1):
            if markdown and line.startswith("```"):
                fence = not fence
            if markdown and not fence and (h := HEADING.match(line)):
                heading = h.group(2)
            links = _linked(line, path) if markdown else []
            for m in CITE.finditer(line):
                target = _target(path, rel, line, m.start(), links, heading, own)
                yield Citation(rel, n, line.strip(), m.group(1), target)


def _target(
    path: Path,
    rel: str,
    line: str,
    at: int,
    links: list[tuple[int, int, Path]],
    heading: str,
    own: bool,
) -> Path:
    """The file whose section the § at ``at`` names (the rules of the module docstring)."""
    for (allowed, piece), game in ALLOW.items():
        if rel == allowed and piece in line:
            return GAMES[game]
    for start, end, target in links:  # 1. a link to a rules file
        if start <= at < end:
            return target
    if own:  # 2. a Markdown file with numbered sections of its own
        return path
    names = GAME_NAME.findall(line[:at])  # 3. the nearest game name before it
    if names:
        return GAMES["madiao" if _is_madiao(names[-1]) else "mazhan"]
    if "madiao" in rel or any(map(_is_madiao, GAME_NAME.findall(heading))):  # 4. the file
        return GAMES["madiao"]
    return GAMES["mazhan"]  # 5.


def _is_madiao(name: str) -> bool:
    return name.lower() not in ("mazhan", "馬站")


ALL = list(citations())


def test_the_code_and_the_docs_cite_the_rules() -> None:
    """The scan finds the citations it is meant to (a broken scan would pass everything)."""
    paths = {c.path for c in ALL}
    assert len(ALL) > 100
    assert {"paiju/mazhan/scoring.py", "paiju/madiao/chong.py", "docs/rules-decisions.md"} <= paths
    games = {c.target for c in ALL}
    assert set(GAMES.values()) <= games


def test_every_allowed_citation_is_still_there() -> None:
    """An entry of :data:`ALLOW` that no longer matches a line is stale: remove it."""
    for (path, piece), game in ALLOW.items():
        assert game in GAMES, f"ALLOW: {game!r} is not a game"
        file = ROOT / path
        assert file.is_file() and piece in file.read_text(encoding="utf-8"), (
            f"ALLOW: stale entry {path}: {piece!r} (the citation moved: move the entry with it)"
        )


@pytest.mark.parametrize("citation", ALL, ids=[f"{c.path}:{c.line}:s{c.section}" for c in ALL])
def test_every_cited_section_exists(citation: Citation) -> None:
    """Each § names a section of the file it cites (a rules file, or the citing file's own)."""
    defined = _SECTIONS.setdefault(citation.target, sections(citation.target))
    where = citation.target.relative_to(ROOT).as_posix()
    assert citation.section in defined, (
        f"{citation.path}:{citation.line} cites §{citation.section}, which {where} does not "
        f"have (it has §{', §'.join(sorted(defined))}): {citation.text!r}"
    )


_SECTIONS: dict[Path, set[str]] = {}


def test_the_sections_the_code_cites_are_the_ones_the_rules_number() -> None:
    """The numbering the code relies on: Mazhan §1–§11, Ma Diao §0–§7 with their parts."""
    mazhan = sections(GAMES["mazhan"])
    madiao = sections(GAMES["madiao"])
    assert {str(n) for n in range(1, 12)} <= mazhan
    assert {f"3.{n}" for n in range(1, 7)} | {f"5.{n}" for n in range(1, 7)} <= mazhan
    assert {str(n) for n in range(8)} <= madiao
    assert {f"3.{n}" for n in range(1, 6)} | {f"4.{n}" for n in range(1, 10)} <= madiao
    assert {f"6.{n}" for n in range(1, 9)} <= madiao


def slugs(path: Path) -> set[str]:
    """The anchors of a Markdown file: GitHub's heading slugs (lower case, punctuation
    dropped, spaces to hyphens, ``-1``, ``-2`` … for repeats) and explicit ``<a id>``s.

    >>> "1-tiles-and-notation" in slugs(GAMES["mazhan"])
    True
    """
    out: set[str] = set()
    seen: dict[str, int] = {}
    fence = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            fence = not fence
        out.update(ANCHOR.findall(line))
        if fence or not (h := HEADING.match(line)):
            continue
        text = re.sub(r"`|\*\*|<[^>]+>", "", h.group(2))
        text = LINK.sub(r"\1", text)
        slug = re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")
        n = seen.get(slug, 0)
        seen[slug] = n + 1
        out.add(slug if n == 0 else f"{slug}-{n}")
    return out


def _anchored_links() -> Iterator[tuple[str, int, str, Path, str]]:
    """Links from the docs into the rules and the decisions that name an anchor."""
    targets = {*GAMES.values(), ROOT / "docs" / "rules-decisions.md"}
    for path in [*sorted((ROOT / "docs").rglob("*.md")), ROOT / "README.md"]:
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            for m in LINK.finditer(line):
                target = m.group(2)
                if target.startswith(("http:", "https:")):
                    continue
                file, _, anchor = target.partition("#")
                resolved = (path.parent / file).resolve() if file else path
                if resolved in targets and anchor:
                    yield path.relative_to(ROOT).as_posix(), n, target, resolved, anchor


LINKS = list(_anchored_links())


def test_the_rules_link_to_the_decisions_and_back() -> None:
    """Both rules files link into the decisions, and the decisions link back."""
    sources = {(source, resolved.name) for source, _, _, resolved, _ in LINKS}
    assert ("docs/rules/mazhan.md", "rules-decisions.md") in sources
    assert ("docs/rules/madiao.md", "rules-decisions.md") in sources
    assert ("docs/rules-decisions.md", "mazhan.md") in sources
    assert ("docs/rules-decisions.md", "madiao.md") in sources


@pytest.mark.parametrize(
    ("source", "line", "target", "resolved", "anchor"),
    LINKS,
    ids=[f"{s}:{n}:{t}" for s, n, t, _, _ in LINKS],
)
def test_every_link_into_the_rules_lands(
    source: str, line: int, target: str, resolved: Path, anchor: str
) -> None:
    """A link to a rules section or a decision names a heading or an anchor that exists."""
    anchors = _SLUGS.setdefault(resolved, slugs(resolved))
    assert anchor in anchors, f"{source}:{line}: {target!r}: no heading or anchor {anchor!r}"


_SLUGS: dict[Path, set[str]] = {}


def _named_tests() -> Iterator[tuple[str, str, str]]:
    for path in sorted(RULES.glob("*.md")):
        for m in TEST_REF.finditer(path.read_text(encoding="utf-8")):
            yield path.name, m.group(1), m.group(2) or ""


NAMED = sorted(set(_named_tests()))


@pytest.mark.parametrize(
    ("rules", "file", "test"), NAMED, ids=[f"{r}:{f}::{t}" for r, f, t in NAMED]
)
def test_every_test_the_rules_name_exists(rules: str, file: str, test: str) -> None:
    """The worked examples name the tests that check them: each file and test exists."""
    path = ROOT / file
    assert path.is_file(), f"{rules} names {file}, which does not exist"
    if test:
        text = path.read_text(encoding="utf-8")
        assert re.search(rf"^(?:async )?def {re.escape(test)}\(", text, re.MULTILINE), (
            f"{rules} names {file}::{test}, which does not exist"
        )
