"""`rlvr export`: merge a run's LoRA adapter into its base model and save a model folder that
plain transformers loads (no PEFT).

    rlvr export RUN_DIR --merge OUT_DIR [--dtype float32|bfloat16|float16] [--force]
    rlvr export --adapter DIR [--model SPEC] --merge OUT_DIR
"""

from __future__ import annotations

import argparse

DTYPES = ("float32", "bfloat16", "float16")  # rlvr.train.export.DTYPES (no import here)


def register(subparsers) -> None:
    """Add the `export` subcommand."""
    p = subparsers.add_parser(
        "export", help="merge a run's adapter into its base model (a plain transformers folder)",
        description="Merge the LoRA adapter of an `rlvr train` run (RUN_DIR/adapter; base model "
                    "from RUN_DIR/resolved_config.yaml) into the base model with PEFT "
                    "merge_and_unload and write OUT_DIR: safetensors weights, config, "
                    "generation config, tokenizer with its chat template, and rlvr_export.json "
                    "(source run, adapter sha256, base model, dtype, rlvr version). "
                    "AutoModelForCausalLM and AutoTokenizer load it without PEFT. The folder is "
                    "written under a temporary name and renamed into place.")
    p.add_argument("run_dir", nargs="?", metavar="RUN_DIR",
                   help="the run directory (the --output-dir of rlvr train)")
    p.add_argument("--merge", required=True, metavar="OUT_DIR",
                   help="folder for the merged model (must not exist or be empty)")
    p.add_argument("--adapter", metavar="DIR",
                   help="a PEFT adapter folder instead of RUN_DIR (e.g. "
                        "RUN/checkpoints/checkpoint-N)")
    p.add_argument("--model", metavar="SPEC",
                   help="base model spec (default: the run's model, else SmolLM2-135M-Instruct)")
    p.add_argument("--dtype", choices=DTYPES, default="float32",
                   help="dtype of the saved weights (default float32; the merge is in float32)")
    p.add_argument("--force", action="store_true",
                   help="replace an existing OUT_DIR that holds an earlier export or model")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    """Check every path (no model loaded), merge, write OUT_DIR and print what was written."""
    from rlvr.train.export import export_merged, plan_export

    plan = plan_export(args.run_dir, args.merge, adapter=args.adapter, model=args.model,
                       dtype=args.dtype, force=args.force)  # no torch yet: fails in a second
    info = export_merged(plan)
    where = "" if info["base_model"] == info["base_model_path"] else f" ({info['base_model_path']})"
    print(f"merged {info['adapter']} (sha256 {info['adapter_sha256'][:12]}) into "
          f"{info['base_model']}{where}, {info['dtype']}")
    print(f"wrote {plan.out_dir}: safetensors weights, config.json, generation_config.json, "
          "tokenizer files, chat template, rlvr_export.json")
    print(f"load it with AutoModelForCausalLM.from_pretrained({str(plan.out_dir)!r}) and "
          "AutoTokenizer.from_pretrained (no PEFT needed)")
    return 0
