"""The documentation's shape: relative links between pages resolve, the README stays short,
and docs/index.md maps every page."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
README_LIMIT = 15_000  # bytes

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.S | re.M)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
INLINE = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
REFERENCE = re.compile(r"^\s{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s.*)?$", re.M)


def links(text: str) -> list[str]:
    """Link targets of a Markdown text, outside fenced blocks and code spans."""
    text = CODE_SPAN.sub("", FENCE.sub("", text))
    return INLINE.findall(text) + REFERENCE.findall(text)


def relative(target: str) -> bool:
    return not re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I)  # http:, https:, mailto:, ...


def test_the_link_reader_finds_links_and_skips_code():
    text = ("See [a](docs/a.md) and ![b](img/b.png \"title\"), `[not](x.md)`,\n"
            "```\n[nor](y.md)\n```\n[ref]: docs/c.md\n[web](https://example.com)")
    assert links(text) == ["docs/a.md", "img/b.png", "https://example.com", "docs/c.md"]


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_relative_links_point_at_existing_files_without_anchors(page):
    bad = []
    for target in links(page.read_text(encoding="utf-8")):
        if not relative(target):
            continue
        if "#" in target:
            bad.append(f"{target}: link to the page, not to an anchor (anchors break silently "
                       "when a heading changes)")
        elif not (page.parent / target).exists():
            bad.append(f"{target}: no such file")
    assert not bad, f"{page.relative_to(ROOT)}: " + "; ".join(bad)


def test_readme_is_at_most_15_kb():
    size = (ROOT / "README.md").stat().st_size
    assert size <= README_LIMIT, (f"README.md is {size} bytes (limit {README_LIMIT}): move the "
                                  "detail into a docs/ page and link it from docs/index.md")


def test_readme_links_the_map_and_the_map_links_every_page():
    assert "docs/index.md" in links((ROOT / "README.md").read_text(encoding="utf-8"))
    index = ROOT / "docs" / "index.md"
    mapped = {(index.parent / t).resolve() for t in links(index.read_text(encoding="utf-8"))
              if relative(t)}
    missing = [p.name for p in PAGES[1:] if p != index and p.resolve() not in mapped]
    assert not missing, f"docs/index.md does not link: {', '.join(missing)}"
