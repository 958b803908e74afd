"""Data loaders and builders (standard library only).

- `messages`: the seed training format (JSONL rows with system/user/assistant messages).
- `selfaware`: the original SelfAware JSON file and the v1/v2/v3 split builder.
- `builtin`: a small dataset written by the project, so the main job runs anywhere.
"""
