"""A task is data (as in lm-evaluation-harness): where its rows come from and in which
order the sources are tried (`sources`, `hub`, packaged `subsets/`), how a row becomes a
prompt (`registry`: system prompt, exemplars, chat or raw), the reward that scores it, its
metrics and its version. Training rows (`rows`, `resolve`) and evaluation rows
(`registry`, `heldout`) both come from here; training and evaluation sit above it."""
