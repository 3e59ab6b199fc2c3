"""The signature printed with every figure, sacreBLEU style: what produced it, from which files, with which
settings, so that a figure read in a paper can be reproduced (issue 11, item 7)."""

from __future__ import annotations

from . import __version__

# The settings' short names in a signature; a setting without one keeps its own name.
SHORT_NAMES = {"resamples": "bs", "confidence": "ci"}


def signature(gold_sha256: str, submission_sha256: str, scope: str, **settings) -> str:
    """accuracy-db:<version>|scheme:shared-task|gold:<12 hex>|sub:<12 hex>|scope:<scope>, then each setting
    given (not None) in order as name:value; resamples is written bs, and confidence (a fraction) ci, as a
    percent: signature(g, s, "ALL", resamples=1000, seed=12345, confidence=0.95) ends |bs:1000|seed:12345|ci:95."""
    parts = [
        f"accuracy-db:{__version__}",
        "scheme:shared-task",
        f"gold:{gold_sha256[:12]}",
        f"sub:{submission_sha256[:12]}",
        f"scope:{scope}",
    ]
    for name, value in settings.items():
        if value is None:
            continue
        if name == "confidence":
            value = f"{round(value * 100, 6):g}"  # 0.95 -> 95, 0.975 -> 97.5 (without float noise)
        parts.append(f"{SHORT_NAMES.get(name, name)}:{value}")
    return "|".join(parts)
