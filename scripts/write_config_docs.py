"""Write docs/config.md, the configuration reference, from the help texts of TrainConfig.

    python scripts/write_config_docs.py           # rewrite docs/config.md
    python scripts/write_config_docs.py --check   # exit 1 when docs/config.md is out of step

Run it after changing a field or a help text in src/rlvr/config/train_config.py;
tests/test_config_docs.py fails until the page matches. The page is built by
`rlvr.config.markdown.config_reference_markdown` from this checkout's src/ (not from
whichever rlvr is installed), and the same source always gives the same page.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "src"))  # this checkout's rlvr, whatever is installed

from rlvr.config.markdown import PAGE, config_reference_markdown  # noqa: E402


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true",
                        help=f"only compare {PAGE} with the generated text")
    args = parser.parse_args()
    path = ROOT / PAGE
    text = config_reference_markdown()
    current = path.read_text(encoding="utf-8") if path.exists() else None
    if args.check:
        if current != text:
            print(f"{PAGE} is out of step with src/rlvr/config/train_config.py; "
                  f"run: python scripts/write_config_docs.py", file=sys.stderr)
            return 1
        print(f"{PAGE} is up to date")
        return 0
    if current == text:
        print(f"{PAGE} unchanged")
        return 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.write(text)
    print(f"wrote {PAGE} ({len(text.encode('utf-8'))} bytes)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
