"""docs/config.md is generated from TrainConfig's help texts and stays in step with them."""

from __future__ import annotations

import dataclasses
import re
import subprocess
import sys
from pathlib import Path

from rlvr.config import TrainConfig
from rlvr.config.markdown import COMMAND, PAGE, config_reference_markdown, sections

ROOT = Path(__file__).resolve().parents[1]
SOURCE = ROOT / "src" / "rlvr" / "config" / "train_config.py"


def test_committed_page_is_the_generated_one():
    committed = (ROOT / PAGE).read_text(encoding="utf-8")
    assert committed == config_reference_markdown(), (
        f"{PAGE} is out of step with src/rlvr/config/train_config.py; regenerate it: {COMMAND}")


def test_every_field_appears_once_with_its_help():
    page = config_reference_markdown()
    for field in dataclasses.fields(TrainConfig):
        rows = [line for line in page.splitlines() if line.startswith(f"| `{field.name}` |")]
        assert len(rows) == 1, f"{field.name}: {len(rows)} rows in {PAGE}"
        assert field.metadata.get("help"), f"{field.name} has no help text"
        first_word = re.sub(r"[^\w].*", "", field.metadata["help"].split()[0])
        assert first_word in rows[0]


def test_page_says_it_is_generated_and_by_what():
    head = config_reference_markdown().split("\n## ", 1)[0]
    assert "generated" in head.lower() and COMMAND in head


def test_sections_are_the_source_comments_in_order():
    titles = [m.group(1).strip() for line in SOURCE.read_text(encoding="utf-8").splitlines()
              if (m := re.match(r"^\s*# --- (.+?) -*\s*$", line))]
    groups = sections()
    assert [title for title, _ in groups] == titles
    names = [name for _, members in groups for name in members]
    assert sorted(names) == sorted(f.name for f in dataclasses.fields(TrainConfig))
    assert len(names) == len(set(names))


def test_generation_is_deterministic():
    assert config_reference_markdown() == config_reference_markdown()


def test_generator_imports_no_model_stack():
    code = ("import sys; import rlvr.config.markdown as m; m.config_reference_markdown(); "
            "print(sorted(x for x in ('torch', 'transformers', 'trl', 'peft', 'accelerate') "
            "if x in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True, env={"PYTHONPATH": str(ROOT / "src")})
    assert out.stdout.strip() == "[]"


def test_script_check_mode_agrees():
    out = subprocess.run([sys.executable, str(ROOT / "scripts" / "write_config_docs.py"),
                          "--check"], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
