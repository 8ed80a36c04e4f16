"""Each genre in one folder (rules, techniques, compiled kernel, engine, formats, picture), on shared layers:
the grid, the SAT layer, the human model and the codecs.

numba's on-disk cache (``cache=True``) notices a change to a compiled function's own file only, not to
the compiled functions it calls from other files, so after an edit a cached kernel could keep running a
stale copy of an engine function. The cache therefore lives in a folder named after the digest of every
compiled source: any change to any of them starts a fresh cache, for this package's compiled code alone.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba.core import config

PACKAGE = Path(__file__).parent


def compiled_sources_digest(root: Path = PACKAGE) -> str:
    """A digest of every source file below ``root`` with compiled (numba) code, names and contents."""
    digest = hashlib.sha256()
    for path in sorted(root.rglob("*.py")):
        text = path.read_bytes()
        if b"from numba" in text:
            digest.update(path.relative_to(root).as_posix().encode() + b"\0" + text)
    return digest.hexdigest()[:16]


def compiled_cache_dir() -> Path:
    """Where numba caches this package's compiled code: ``NUMBA_CACHE_DIR`` (else ``.numba-cache`` beside the
    package), in a folder per version of the compiled sources."""
    base = Path(os.environ.get("NUMBA_CACHE_DIR") or PACKAGE.parent / ".numba-cache")
    return base / compiled_sources_digest()


CACHE_DIR = compiled_cache_dir()  # read once: the digest reads every compiled source
config.CACHE_DIR = str(CACHE_DIR)
