"""Every link of the documentation leads somewhere in the repository: someone who clones it can
follow each relative link and image of the README and of every page under docs/ (and the other
notes: benchmarks/, fixtures/) to a file that is there, and each `#anchor` to a heading of that
page. No link leaves the repository, whether by `../` past its root or to the shared folder that
sits beside it on the machine it was written on.
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
# Written in two pieces so that this file does not match its own search.
SHARED = "../" + "shared/"
SKIPPED = {".venv", "node_modules", "staticfiles"}

FENCE = re.compile(r"^ {0,3}(```|~~~).*?^ {0,3}\1", re.MULTILINE | re.DOTALL)
CODE = re.compile(r"`[^`]+`")
INLINE = re.compile(r"!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+.*)?$", re.MULTILINE)
HTML = re.compile(r"<(?:img|a)\b[^>]*?\b(?:src|href)=\"([^\"]+)\"", re.IGNORECASE)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)[ \t#]*$", re.MULTILINE)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")


def documents() -> list[Path]:
    """The README and every Markdown page of the repository outside hidden and installed folders."""
    found = []
    for path in sorted(REPO.rglob("*.md")):
        parts = path.relative_to(REPO).parts
        if any(part.startswith(".") or part in SKIPPED for part in parts[:-1]):
            continue
        found.append(path)
    return found


def prose(text: str) -> str:
    """The text a reader sees as prose: fenced blocks and code spans hold no links."""
    return CODE.sub("", FENCE.sub("", text))


def targets(text: str) -> list[str]:
    """Every link and image target of a Markdown text: inline, reference-style and HTML."""
    text = prose(text)
    return INLINE.findall(text) + REFERENCE.findall(text) + HTML.findall(text)


def slug(heading: str) -> str:
    """The anchor GitHub gives a heading: its text without markup, lower case, punctuation but
    hyphens and underscores dropped, spaces to hyphens."""
    text = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link keeps its words
    text = re.sub(r"[`*]", "", text).strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    """The anchors of a page's headings; a repeated heading's anchor takes -1, -2, … as on GitHub."""
    seen: dict[str, int] = {}
    found = set()
    for heading in HEADING.findall(FENCE.sub("", path.read_text(encoding="utf-8"))):
        base = slug(heading)
        count = seen.get(base, 0)
        seen[base] = count + 1
        found.add(base if count == 0 else f"{base}-{count}")
    return found


def broken(document: Path, root: Path = REPO) -> list[str]:
    """The targets of `document` that lead nowhere in the repository under `root`, each with why."""
    problems = []
    for target in targets(document.read_text(encoding="utf-8")):
        if SHARED in target:
            problems.append(f"{target}: the shared folder is not part of the repository")
            continue
        if SCHEME.match(target) or target.startswith("//"):  # https:, mailto: — not a file of ours
            continue
        name, _, fragment = target.partition("#")
        name = name.split("?", 1)[0]
        if not name:
            path = document
        elif name.startswith("/"):
            path = (root / name.lstrip("/")).resolve()
        else:
            path = (document.parent / name).resolve()
        if not path.is_relative_to(root.resolve()):
            problems.append(f"{target}: outside the repository")
        elif not path.is_file():
            problems.append(f"{target}: no such file")
        elif fragment and path.suffix == ".md" and fragment not in anchors(path):
            problems.append(f"{target}: no heading #{fragment} in {path.relative_to(root.resolve())}")
    return problems


def test_the_readme_and_the_docs_are_checked():
    checked = {str(path.relative_to(REPO)) for path in documents()}

    assert {"README.md", "docs/README.md", "docs/rules.md", "docs/record-format.md",
            "docs/rules/portaria-135-91-M.md", "benchmarks/README.md"} <= checked


@pytest.mark.parametrize("document", documents(), ids=lambda path: str(path.relative_to(REPO)))
def test_every_relative_link_and_image_resolves_in_the_repository(document):
    assert broken(document) == []


# --- The check itself finds what it must ----------------------------------------------------------

def test_a_broken_link_a_missing_heading_and_a_link_outside_are_each_found(tmp_path):
    repo = tmp_path / "repo"
    (repo / "docs" / "screenshots").mkdir(parents=True)
    (repo / "docs" / "screenshots" / "table.png").write_bytes(b"\x89PNG")
    (repo / "docs" / "ledger.md").write_text("# The ledger\n\n## Append-only rows\n", encoding="utf-8")
    page = repo / "docs" / "screens.md"
    page.write_text(
        "# Screens\n\n"
        "![the table](screenshots/table.png) and [the ledger](ledger.md#append-only-rows) are there;\n"
        "[a page](ledger.md#no-such-heading), [a picture](screenshots/gone.png),\n"
        "[an old page](../README.md), [the shared notes](../../" "shared/STYLE.md)\n"
        "and [back here](#screens), [the web](https://example.mo/) are not all.\n\n"
        "```sh\n[not a link](nowhere.md)\n```\n`[nor this](nowhere.md)`\n",
        encoding="utf-8")

    problems = broken(page, root=repo)

    assert problems == [
        "ledger.md#no-such-heading: no heading #no-such-heading in docs/ledger.md",
        "screenshots/gone.png: no such file",
        "../README.md: no such file",
        "../../" "shared/STYLE.md: the shared folder is not part of the repository",
    ]


def test_a_link_past_the_root_of_the_repository_is_outside_it(tmp_path):
    repo = tmp_path / "repo"
    repo.mkdir()
    (tmp_path / "notes.md").write_text("# Notes\n", encoding="utf-8")
    page = repo / "README.md"
    page.write_text("[notes](../notes.md)\n", encoding="utf-8")

    assert broken(page, root=repo) == ["../notes.md: outside the repository"]


def test_headings_give_githubs_anchors():
    assert slug("The engine (`engine.py`)") == "the-engine-enginepy"
    assert slug("Step 6: save the ledger's heads every night") == "step-6-save-the-ledgers-heads-every-night"
    assert slug("What `verify_ledger` checks") == "what-verify_ledger-checks"
    assert slug("The dealer: the table screen (`/pit/`)") == "the-dealer-the-table-screen-pit"
