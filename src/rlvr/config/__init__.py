"""The training configuration: the dataclass (`train_config`), its loading from files and
overrides (`loading`), its checks (`checks`,
`backends`, `trl_keys` for the `trl:` mapping, with the GRPOConfig option names of
`trl_fields`), its JSON schema (`schema`) and the reference layout (`reference`).

`TrainConfig`, `load_config` and `parse_override` are re-exported here, so
`from rlvr.config import TrainConfig, load_config` is the public way in.
"""

from rlvr.config.loading import load_config, parse_override
from rlvr.config.train_config import TrainConfig

__all__ = ["TrainConfig", "load_config", "parse_override"]
