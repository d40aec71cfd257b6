"""The documentation stands alone: someone who clones the repository has every document it
sends him to, the index of docs/ names every page and screenshot, and the worked examples of
docs/record-format.md are what the scorer really prints, so the page cannot drift from the
engine. That every link resolves is tests/docs/test_links.py's.
"""
import json
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import msgspec
import msgspec.inspect
import pytest

from regulation import read_record, record, score

REPO = Path(__file__).resolve().parents[2]
DOCS = REPO / "docs"
SCREENSHOTS = DOCS / "screenshots"
RECORD_FORMAT = DOCS / "record-format.md"
# Written in two pieces so that this file does not match its own search.
OUTSIDE = "../" + "shared/"
SEATS = {"E", "S", "W", "N"}

FENCE = re.compile(r"^```.*?^```", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)")


def documents() -> list[Path]:
    return [REPO / "README.md", *sorted(DOCS.rglob("*.md"))]


def links(path: Path) -> list[str]:
    return LINK.findall(FENCE.sub("", path.read_text(encoding="utf-8")))


def sources() -> list[Path]:
    """The documents, the code (*.py under casino/, regulation/, tests/, benchmarks/, scripts/),
    the templates and the other files a reader opens (Makefile, scripts, CI, fixtures' notes)."""
    files = documents()
    for folder in ("casino", "regulation", "tests", "benchmarks", "scripts", "templates", "fixtures"):
        for suffix in ("*.py", "*.html", "*.md", "*.txt"):
            files += sorted((REPO / folder).rglob(suffix))
    files += [REPO / "Makefile", REPO / "pyproject.toml", *sorted((REPO / ".ci").glob("*")),
              *sorted((REPO / "scripts").glob("*"))]
    return [path for path in files if path.is_file()]


def test_no_file_sends_the_reader_outside_the_repository():
    found = [f"{path.relative_to(REPO)}:{number}"
             for path in sources()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1)
             if OUTSIDE in line]

    assert found == []


def test_the_docs_index_names_every_document_and_screenshot():
    named = {target.partition("#")[0] for target in links(DOCS / "README.md")}
    present = {str(path.relative_to(DOCS)) for path in DOCS.rglob("*") if path.suffix in (".md", ".png")}

    assert present - named - {"README.md"} == set(), "docs/README.md does not link to these"


def test_screenshots_live_in_their_own_folder():
    loose = sorted(path.name for path in DOCS.glob("*.png"))

    assert loose == [], "move them to docs/screenshots/"
    assert len(list(SCREENSHOTS.glob("*.png"))) >= 20


# --- The worked examples of docs/record-format.md -------------------------------------------

def worked_examples() -> dict[str, str]:
    """Each `### ` example of the "Worked examples" section, by its title."""
    text = RECORD_FORMAT.read_text(encoding="utf-8")
    section = text.split("\n## Worked examples\n", 1)[1].split("\n## ", 1)[0]
    parts = re.split(r"^### +(.+)$", section, flags=re.MULTILINE)
    return dict(zip(parts[1::2], parts[2::2]))


def files_of(example: str) -> dict[str, str]:
    """The files an example writes out: a line `name`: then a fenced block."""
    return dict(re.findall(r"^`([\w.-]+)`:\n\n```\w*\n(.*?)^```", example, re.MULTILINE | re.DOTALL))


def transcripts(example: str) -> list[list[tuple[str, str]]]:
    """Each console block as (command, what it printed) pairs."""
    blocks = re.findall(r"^```console\n(.*?)^```", example, re.MULTILINE | re.DOTALL)
    runs = []
    for block in blocks:
        steps = []
        for line in block.splitlines():
            if line.startswith("$ "):
                steps.append((line[2:], []))
            else:
                steps[-1][1].append(line)
        runs.append([(command, "".join(out + "\n" for out in printed)) for command, printed in steps])
    return runs


def run(command: str, folder: Path) -> tuple[str, int]:
    """Run one `python -m regulation …` line as a shell would, from `folder`."""
    words = shlex.split(command)
    keep_out = keep_err = True
    if words[-1] == "2>/dev/null":
        keep_err = False
        words.pop()
    elif words[-1] == ">/dev/null":
        keep_out = False
        words.pop()
    assert words[:3] == ["python", "-m", "regulation"], command
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    process = subprocess.run([sys.executable, *words[1:]], cwd=folder, env=env, capture_output=True, timeout=60)
    out = process.stdout.decode() if keep_out else ""
    err = process.stderr.decode() if keep_err else ""
    # A transcript shows both streams as one only when at most one of them prints.
    assert not (out and err), f"{command}: redirect one of the two streams in the example"
    return out + err, process.returncode


def test_record_format_has_worked_examples():
    examples = worked_examples()

    assert len(examples) >= 3
    assert all(transcripts(example) for example in examples.values())


@pytest.mark.parametrize("title", list(worked_examples()))
def test_worked_example_prints_what_the_document_shows(title, tmp_path):
    example = worked_examples()[title]
    for name, content in files_of(example).items():
        (tmp_path / name).write_text(content, encoding="utf-8")
    status = None
    for steps in transcripts(example):
        for command, shown in steps:
            if command == "echo $?":
                assert f"{status}\n" == shown, f"{title}: exit status"
                continue
            printed, status = run(command, tmp_path)
            assert printed == shown, f"{title}: {command}"


# --- Every field and value of the record is documented --------------------------------------

def record_fields(info, path=""):
    """(dotted path, its literal values) for every field of the record's declared shape."""
    for field in info.fields:
        name = f"{path}{field.name}"
        types = field.type.types if isinstance(field.type, msgspec.inspect.UnionType) else (field.type,)
        values: tuple = ()
        for kind in types:
            inside = f"{name}."
            if isinstance(kind, msgspec.inspect.ListType):
                kind, inside = kind.item_type, f"{name}[]."
            if isinstance(kind, msgspec.inspect.StructType) and not SEATS.issuperset(kind.cls.__struct_fields__):
                yield from record_fields(kind, inside)  # capital's keys, the seat winds, are told apart
            elif isinstance(kind, msgspec.inspect.LiteralType):
                values += kind.values
        yield name, values


def record_shape() -> type:
    """The record's declared shape in regulation/record.py, whatever its name there."""
    shapes = [value for value in vars(record).values()
              if isinstance(value, type) and issubclass(value, msgspec.Struct)
              and value.__struct_config__.forbid_unknown_fields  # as written, not the engine's Record
              and {"variant", "stake", "result", "hand"} <= set(value.__struct_fields__)]
    assert len(shapes) == 1, shapes
    return shapes[0]


def test_record_format_names_every_field_and_value_of_the_record():
    text = RECORD_FORMAT.read_text(encoding="utf-8")
    shape = msgspec.inspect.type_info(record_shape())
    missing = [f"{name} = {value!r}" if value else name
               for name, values in record_fields(shape)
               for value in (None, *values)
               if (f"`{name}`" if value is None else f'`"{value}"`') not in text]

    assert missing == []


def test_the_record_shown_first_is_a_valid_jogo_of_its_declared_grade():
    text = RECORD_FORMAT.read_text(encoding="utf-8")
    example = json.loads(re.search(r"^## The record\n\n```json\n(.*?)^```", text, re.MULTILINE | re.DOTALL).group(1))

    result = score(read_record(example)).as_dict()

    assert result["valid"] is True, result["errors"]
    assert result["fan"] == example["declared_fan"]
    assert result["fan_mismatch"] is False
