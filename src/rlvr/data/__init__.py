"""Data loaders and builders (standard library only, but for the shortcut check's function).

- `messages`: the seed training format (JSONL rows with system/user/assistant messages).
- `selfaware`: the original SelfAware JSON file and the v1/v2/v3 split builder.
- `builtin`: a small dataset written by the project, so the main job runs anywhere.
- `out_of_template`: a held-out set written apart from the built-in templates.
- `features`: cheap surface features of a question (year, tense, person, ...).
- `shortcuts`: does the wording alone predict unanswerable rows? (imports scikit-learn
  inside `shortcut_check`).
"""
