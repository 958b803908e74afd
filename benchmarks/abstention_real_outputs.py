"""Real responses for measuring the free-text abstention detector on data not written for it.

    .venv/bin/python benchmarks/abstention_real_outputs.py --out runs/abstention_real3

Samples the default model (SmolLM2-135M-Instruct, transformers, float32; or trained LoRA
adapters over it, `--adapter`) on SelfAware
questions (`../shared/data/selfaware/SelfAware.json`; a fixed random draw, seed 0, of
`--unanswerable` unanswerable and `--answerable` answerable questions), in two prompt
styles: the main job's (its system prompt and two exemplars, one of them "I don't know.")
and the bare question (the model's own default system prompt), at each temperature of
`--temperatures`, one sample each, up to 48 new tokens. Writes `unlabelled.jsonl`: the
distinct responses (question, style, temperature, text) that are not already in
tests/fixtures/abstention_labelled/responses.jsonl, in a shuffled order, without any
detector output, for a reader to label (`answer`, `abstain` or `hedge`) before the
detector is run on them. Prints how many it wrote.
"""

from __future__ import annotations

import argparse
import json
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "data" / "selfaware" / "SelfAware.json"
FIXTURE = ROOT / "tests" / "fixtures" / "abstention_labelled" / "responses.jsonl"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default=str(ROOT / "runs" / "abstention_real3"))
    parser.add_argument("--unanswerable", type=int, default=40)
    parser.add_argument("--answerable", type=int, default=20)
    parser.add_argument("--temperatures", default="0.7,1.0")
    parser.add_argument("--adapter", action="append", default=[],
                        help="a trained LoRA adapter folder to sample instead of the base model "
                             "(repeat for several; each is sampled in turn)")
    parser.add_argument("--draw-seed", type=int, default=0,
                        help="seed of the question draw (0: the draw of real3)")
    args = parser.parse_args()
    import torch
    from transformers import AutoModelForCausalLM, AutoTokenizer

    from rlvr.config.loading import load_config
    from rlvr.models import default_model_dir

    rows = json.loads(DATA.read_text(encoding="utf-8"))
    rows = rows.get("example", rows) if isinstance(rows, dict) else rows
    rng = random.Random(args.draw_seed)
    unanswerable = [r for r in rows if not r.get("answerable")]
    answerable = [r for r in rows if r.get("answerable")]
    chosen = rng.sample(unanswerable, args.unanswerable) + rng.sample(answerable, args.answerable)
    cfg = load_config(ROOT / "configs" / "selfaware_grpo_cpu.yaml")
    job = [{"role": "system", "content": cfg.system_prompt}]
    for question, answer in cfg.prompt_exemplars:
        job += [{"role": "user", "content": question}, {"role": "assistant", "content": answer}]
    path = default_model_dir()
    tokenizer = AutoTokenizer.from_pretrained(path)
    tokenizer.padding_side = "left"
    base = AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32).eval()
    seen = {json.loads(line)["text"].strip() for line in FIXTURE.read_text().splitlines()}
    out: dict[str, dict] = {}
    models = [("base", base)]
    if args.adapter:
        from peft import PeftModel
        models = [(folder, PeftModel.from_pretrained(
            AutoModelForCausalLM.from_pretrained(path, dtype=torch.float32), folder).eval())
            for folder in args.adapter]
    for (source, model), (style, head) in ((m, s) for m in models
                                           for s in (("main_job", job), ("bare", []))):
        texts = [tokenizer.apply_chat_template(head + [{"role": "user", "content": r["question"]}],
                                               add_generation_prompt=True, tokenize=False)
                 for r in chosen]
        for temperature in (float(t) for t in args.temperatures.split(",")):
            torch.manual_seed(0)
            for start in range(0, len(texts), 16):
                batch = tokenizer(texts[start:start + 16], return_tensors="pt", padding=True,
                                  add_special_tokens=False)
                with torch.no_grad():
                    ids = model.generate(**batch, do_sample=True, temperature=temperature,
                                         max_new_tokens=48, pad_token_id=tokenizer.pad_token_id)
                answers = tokenizer.batch_decode(ids[:, batch.input_ids.size(1):],
                                                 skip_special_tokens=True)
                for row, text in zip(chosen[start:start + 16], answers):
                    text = text.strip()
                    if text and text not in seen and text not in out:
                        out[text] = {"question": row["question"],
                                     "answerable": bool(row.get("answerable")),
                                     "model": source, "style": style,
                                     "temperature": temperature, "text": text}
    records = list(out.values())
    random.Random(1).shuffle(records)
    folder = Path(args.out)
    folder.mkdir(parents=True, exist_ok=True)
    with open(folder / "unlabelled.jsonl", "w", encoding="utf-8") as f:
        for i, r in enumerate(records):
            f.write(json.dumps({"n": i, **r}, ensure_ascii=False) + "\n")
    print(f"wrote {len(records)} distinct responses to {folder / 'unlabelled.jsonl'}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
