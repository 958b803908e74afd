"""Reading a config file: YAML or JSON, every problem one line naming `path[:line]`
(`read_config_file`, used by `rlvr.config.load_config`)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rlvr.errors import ConfigError


def read_config_file(path: Path) -> Any:
    """Parse a YAML/JSON config file; every problem is one line naming `path[:line]`.

    Returns:
        the parsed document (any YAML value; `load_config` checks it is a mapping).
    Raises:
        ConfigError: missing file, a folder, not UTF-8, empty (or only comments), invalid
            YAML, or a key given twice in one mapping (YAML would keep the last silently).
    """
    import yaml

    if path.is_dir():
        raise ConfigError(f"--config {path} is a folder; pass a YAML file such as "
                          "configs/selfaware_grpo_cpu.yaml")
    if not path.is_file():
        raise ConfigError(f"config file {path} not found")
    raw = path.read_bytes()
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw[:exc.start].count(b"\n") + 1
        raise ConfigError(f"{path}:{line}: not UTF-8 text; save the file as UTF-8") from None

    class UniqueKeyLoader(yaml.SafeLoader):
        def construct_mapping(self, node, deep=False):
            seen: dict[str, int] = {}
            for key_node, _ in node.value:
                if isinstance(key_node, yaml.ScalarNode) and key_node.value != "<<":
                    line = key_node.start_mark.line + 1
                    if key_node.value in seen:
                        raise ConfigError(f"{path}:{line}: key {key_node.value!r} is given "
                                          f"twice (also on line {seen[key_node.value]}); "
                                          "keep one")
                    seen[key_node.value] = line
            return super().construct_mapping(node, deep)

    try:
        loaded = yaml.load(text, Loader=UniqueKeyLoader)  # noqa: S506 - a SafeLoader
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{path}:{mark.line + 1}" if mark is not None else str(path)
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        raise ConfigError(f"{where}: invalid YAML ({problem}); fix that line") from None
    if loaded is None:
        raise ConfigError(f"{path}: the config file is empty; write settings into it (see "
                          "configs/selfaware_grpo_cpu.yaml) or omit --config for the defaults")
    return loaded
