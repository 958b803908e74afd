"""Build the small evaluation subsets packaged with rlvr (`src/rlvr/tasks/subsets/`).

    .venv/bin/python scripts/build_eval_subsets.py                  # from ../shared/data
    .venv/bin/python scripts/build_eval_subsets.py --source DIR --output OUT --seed 0

`rlvr eval` uses these subsets only when a task's data is neither a local file nor
reachable on the Hugging Face Hub (docs/eval_data.md). For each of the
permissively licensed tasks (GSM8K and HumanEval: MIT; MBPP: CC-BY-4.0; TriviaQA:
Apache-2.0) the script reads the full upstream file from DIR (the layout of
`shared/data`: DIR/gsm8k/test.jsonl, ...), takes a fixed seeded sample of rows (kept in
file order, each row unchanged; an `id` naming the upstream line is added where the
upstream row has none), and writes OUT/<task>/ with the rows as gzip JSONL, the upstream
LICENSE, and a SOURCE.md (upstream repository and commit, license, which rows and how,
this command), plus OUT/manifest.json (files, row counts, sha256 of every source file).
The gzip header carries no time stamp, so a rebuild writes byte-identical files.
SelfAware (CC-BY-SA-4.0, research use) is never packaged.
"""

from __future__ import annotations

import argparse
import gzip
import hashlib
import json
import random
import re
import shutil
import sys
from pathlib import Path

from rlvr.io import write_bytes, write_json, write_text

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_SOURCE = ROOT.parent / "shared" / "data"
DEFAULT_OUTPUT = ROOT / "src" / "rlvr" / "eval" / "subsets"

# task -> dataset description, license, license files, and the parts to sample.
# A part: role ("eval" rows or "fewshot" exemplars), source file under DIR, output file,
# rows to take (None = all), the upstream split it is, an id prefix when the upstream row
# has no id (id = "<prefix>-<line in the upstream file>", as rlvr's loaders number rows),
# and an optional task_id range (MBPP's test split is task ids 11-510).
SPECS = {
    "gsm8k": {
        "title": "GSM8K (Cobbe et al., 2021, \"Training Verifiers to Solve Math Word Problems\")",
        "license": "MIT", "license_files": ["LICENSE"],
        "hub": "openai/gsm8k, config main",
        "parts": [
            {"role": "eval", "source": "gsm8k/test.jsonl", "out": "test.jsonl.gz", "rows": 500,
             "split": "the GSM8K test split", "id_prefix": "test"},
            {"role": "fewshot", "source": "gsm8k/train.jsonl", "out": "train.jsonl.gz",
             "rows": 100, "split": "the GSM8K train split, for few-shot exemplars",
             "id_prefix": "train"},
        ],
    },
    "humaneval": {
        "title": ("HumanEval (Chen et al., 2021, \"Evaluating Large Language Models Trained "
                  "on Code\")"),
        "license": "MIT", "license_files": ["LICENSE"],
        "hub": "openai/openai_humaneval",
        "parts": [
            {"role": "eval", "source": "humaneval/HumanEval.jsonl.gz", "out": "HumanEval.jsonl.gz",
             "rows": None, "split": "the HumanEval test split"},
        ],
    },
    "mbpp": {
        "title": "MBPP (Austin et al., 2021, \"Program Synthesis with Large Language Models\")",
        "license": "CC-BY-4.0", "license_files": [],
        "hub": "google-research-datasets/mbpp, config full",
        "parts": [
            {"role": "eval", "source": "mbpp/mbpp.jsonl", "out": "test.jsonl.gz", "rows": 300,
             "split": "the MBPP test split, task ids 11-510", "task_ids": (11, 510)},
        ],
    },
    "triviaqa": {
        "title": "TriviaQA (Joshi et al., 2017), MosaicML llm-foundry's eval subset",
        "license": "Apache-2.0", "license_files": ["LICENSE", "LICENSE.llm-foundry"],
        "hub": "mandarjoshi/trivia_qa, config rc.nocontext",
        "parts": [
            {"role": "eval", "source": "triviaqa/triviaqa_sm_sub.jsonl",
             "out": "triviaqa_sm_sub.jsonl.gz", "rows": 500,
             "split": "llm-foundry's TriviaQA eval subset",
             "id_prefix": "triviaqa"},
        ],
    },
}

# MBPP's directory upstream has no LICENSE file; the dataset card declares CC-BY-4.0.
MBPP_LICENSE = """\
MBPP: Mostly Basic Python Problems
Austin, J., Odena, A., Nye, M., Bosma, M., Michalewski, H., Dohan, D., Jiang, E., Cai, C.,
Terry, M., Le, Q., and Sutton, C. "Program Synthesis with Large Language Models", 2021.
https://arxiv.org/abs/2108.07732
Source: https://github.com/google-research/google-research/tree/master/mbpp

This dataset is licensed under the Creative Commons Attribution 4.0 International
License (CC BY 4.0), as declared by its dataset card (google-research-datasets/mbpp).
Full license text: https://creativecommons.org/licenses/by/4.0/legalcode

Changes made for rlvr: a subset of the rows was selected (see SOURCE.md); the rows
themselves are unchanged; the file is gzip-compressed. The material is provided as-is,
without warranties of any kind (CC BY 4.0, Section 5).
"""


def read_rows(path: Path) -> list[tuple[int, dict]]:
    """`(line, object)` for each non-blank line of a JSONL file (.gz read as gzip).

    Raises:
        SystemExit: the file is missing or a line is not JSON (names file:line).
    """
    if not path.is_file():
        raise SystemExit(f"build_eval_subsets: {path}: not found; pass --source DIR "
                         "holding the full files (gsm8k/test.jsonl, ...)")
    opener = gzip.open if path.suffix == ".gz" else open
    rows = []
    with opener(path, "rt", encoding="utf-8") as handle:
        for line, text in enumerate(handle, start=1):
            if not text.strip():
                continue
            try:
                rows.append((line, json.loads(text)))
            except json.JSONDecodeError as exc:
                raise SystemExit(f"build_eval_subsets: {path}:{line}: invalid JSON ({exc.msg})")
    return rows


def sha256(path: Path) -> str:
    """Hex sha256 of a file's bytes."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def select(rows: list[tuple[int, dict]], count: int | None,
           seed_text: str) -> list[tuple[int, dict]]:
    """`count` rows drawn with `random.Random(seed_text).sample`, returned in file order
    (all rows when `count` is None or at least the number of rows)."""
    if count is None or count >= len(rows):
        return list(rows)
    keep = sorted(random.Random(seed_text).sample(range(len(rows)), count))
    return [rows[i] for i in keep]


def gzip_jsonl(rows: list[dict]) -> bytes:
    """Rows as UTF-8 JSONL, gzip level 9 with mtime 0 and no file name (reproducible)."""
    text = "".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows)
    return gzip.compress(text.encode("utf-8"), compresslevel=9, mtime=0)


def build_part(task: str, part: dict, source: Path, out_dir: Path, seed: int) -> dict:
    """Sample one part, write it, and return its manifest entry."""
    path = source / part["source"]
    rows = read_rows(path)
    if "task_ids" in part:
        low, high = part["task_ids"]
        rows = [(n, r) for n, r in rows if low <= r["task_id"] <= high]
    seed_text = f"{seed}:{task}:{part['role']}"
    chosen = select(rows, part["rows"], seed_text)
    prefix = part.get("id_prefix")
    out_rows = [({"id": f"{prefix}-{n}", **r} if prefix else r) for n, r in chosen]
    write_bytes(out_dir / part["out"], gzip_jsonl(out_rows))
    return {"file": f"{task}/{part['out']}", "rows": len(out_rows), "of": len(rows),
            "split": part["split"], "source_file": part["source"],
            "source_sha256": sha256(path),
            "selection": ("all rows" if len(out_rows) == len(rows) else
                          f"random.Random({seed_text!r}).sample of row indices, file order kept"),
            "ids": "upstream task_id" if prefix is None else
                   f"added: \"{prefix}-N\", N = the row's line in the upstream file"}


def source_md(task: str, spec: dict, parts: dict[str, dict], source: Path, seed: int) -> str:
    """SOURCE.md for one task folder: what, license, rows taken and how, the command,
    then the upstream provenance (the SOURCE.md that came with the full files)."""
    lines = [f"# {spec['title']}: subset packaged with rlvr", "",
             "Used by `rlvr eval` only when the task's data is neither a local file "
             "(`--task-path`, `--data-dir`, `$RLVR_DATA_DIR`) nor reachable on the Hugging "
             f"Face Hub ({spec['hub']}); the results then name this subset as the data source.",
             "", f"- License: {spec['license']} (see LICENSE"
             + ("".join(f", {f}" for f in spec["license_files"][1:])) + " in this folder)."]
    for role, entry in parts.items():
        lines.append(f"- `{Path(entry['file']).name}` ({role}): {entry['rows']} of the "
                     f"{entry['of']:,} rows of {entry['split']}, from `{entry['source_file']}` "
                     f"(sha256 {entry['source_sha256'][:16]}...); {entry['selection']}; each row "
                     f"is the upstream JSON object unchanged; ids: {entry['ids']}.")
    lines += ["- Built with: `.venv/bin/python scripts/build_eval_subsets.py --source DIR "
              f"--seed {seed}`, DIR holding the full upstream files in the layout "
              "`DIR/<task>/<file>` (rebuilding gives byte-identical files).", "",
              "## Upstream provenance (SOURCE.md of the full files)", ""]
    upstream = source / task / "SOURCE.md"
    if upstream.is_file():
        text = upstream.read_text(encoding="utf-8").strip()
        lines.append(re.sub(r"(?m)^(#+) ", r"##\1 ", text))  # its headings go two levels down
    return "\n".join(lines) + "\n"


def build(source: Path, output: Path, seed: int = 0) -> dict:
    """Build every task's subset into `output`; return the manifest (also written)."""
    manifest = {"format": 1, "seed": seed, "tasks": {}}
    for task, spec in SPECS.items():
        out_dir = output / task
        out_dir.mkdir(parents=True, exist_ok=True)
        parts = {p["role"]: build_part(task, p, source, out_dir, seed) for p in spec["parts"]}
        for name in spec["license_files"]:
            src = source / task / name
            if not src.is_file():
                raise SystemExit(f"build_eval_subsets: {src}: license file not found")
            write_bytes(out_dir / name, src.read_bytes())
        if task == "mbpp":
            write_text(out_dir / "LICENSE", MBPP_LICENSE)
        write_text(out_dir / "SOURCE.md", source_md(task, spec, parts, source, seed))
        manifest["tasks"][task] = {"title": spec["title"], "license": spec["license"],
                                   "hub": spec["hub"], **parts}
    write_json(output / "manifest.json", manifest)
    return manifest


def main(argv: list[str] | None = None) -> int:
    """Parse the command line, build, print what was written and the total size."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--source", type=Path, default=DEFAULT_SOURCE,
                        help="folder with the full files (default: %(default)s)")
    parser.add_argument("--output", type=Path, default=DEFAULT_OUTPUT,
                        help="where to write the subsets (default: %(default)s)")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    manifest = build(args.source, args.output, args.seed)
    total = 0
    for path in sorted(p for p in args.output.rglob("*") if p.is_file()):
        total += path.stat().st_size
        print(f"{path.stat().st_size:9,d}  {path.relative_to(args.output)}")
    for task, entry in manifest["tasks"].items():
        print(task + ": " + ", ".join(f"{role} {entry[role]['rows']} of {entry[role]['of']}"
                                      for role in ("eval", "fewshot") if role in entry))
    print(f"{total:9,d}  bytes in {args.output}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
