"""Shared matplotlib helpers for rlvr's PNG outputs (optional; needs matplotlib).

matplotlib is not a core dependency: `require_pyplot` imports it on demand with the
non-interactive Agg backend and raises RlvrError with the install command when it is
missing. `save_png` renders a figure into memory and writes it atomically.
Used by `rlvr.plots.observe` (`rlvr observe --plot`) and `rlvr.plots.training` (`rlvr plot`).
"""

from __future__ import annotations

import io
from pathlib import Path

from rlvr.errors import RlvrError
from rlvr.io import write_bytes


def require_pyplot(feature: str = "--plot"):
    """Return matplotlib.pyplot with the Agg backend selected.

    Args:
        feature: what needs matplotlib, named in the error (e.g. "--plot", "`rlvr plot`").
    Raises:
        RlvrError: matplotlib is not installed (the message gives the pip command).
    """
    try:
        import matplotlib
    except ImportError:
        raise RlvrError(f"{feature} needs matplotlib, which is not installed; "
                        "run `pip install matplotlib` (or `pip install rlvr[plot]`)") from None
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def save_png(fig, path: str | Path, dpi: int = 120, tight: bool = True) -> Path:
    """Render `fig` as PNG and write it atomically to `path`; return the path.

    Args:
        dpi: pixels per inch.
        tight: crop to the drawn content (`bbox_inches="tight"`, the size then depends on
            the content); False keeps the exact size figsize x dpi pixels.
    Raises:
        OSError: the file cannot be written.
    """
    buffer = io.BytesIO()
    fig.savefig(buffer, format="png", dpi=dpi, bbox_inches="tight" if tight else None)
    return write_bytes(path, buffer.getvalue())


DPI = 120  # PNG resolution of every plot: pixels = inches x DPI


def wrap_label(key: str) -> str:
    """A metric key as a tick label: underscores as spaces, wrapped at 16 characters."""
    import textwrap

    return "\n".join(textwrap.wrap(key.replace("_", " "), 16))


def figure_row(plt, size: tuple[float, float], ncols: int = 1):
    """A figure of `size` inches and its list of `ncols` axes in one row."""
    fig, axes = plt.subplots(1, ncols, figsize=size, layout="constrained", squeeze=False)
    return fig, list(axes[0])
