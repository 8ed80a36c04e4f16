"""Each genre in one folder (rules, techniques, compiled kernel, engine, formats, picture), on shared layers:
the grid, the SAT layer, the human model and the codecs.

numba's on-disk cache (``cache=True``) notices a change to a compiled function's own file only, not to
the compiled functions it calls from other files, so after an edit a cached kernel could keep running a
stale copy of an engine function. The cache therefore lives in a folder named after the digest of every
compiled source: any change to any of them starts a fresh cache, for this package's compiled code alone.
Inside that folder a function is found by its place in the package, not on disk, so the same sources installed
elsewhere (the shipped wheel, a second checkout) load a cache made here instead of compiling again; numba's own
stamp is the source's content hash.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

from numba.core import config
from numba.core.caching import CacheImpl, UserProvidedCacheLocator

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


class PackageCacheLocator(UserProvidedCacheLocator):
    """numba's cache locator for this package's functions: the cache's subfolder is the source's folder within
    the package (numba's own names it by a hash of the absolute path)."""

    @classmethod
    def get_suitable_cache_subpath(cls, py_file: str) -> str:
        return "_".join(Path(py_file).resolve().parent.relative_to(PACKAGE.resolve().parent).parts)

    @classmethod
    def from_function(cls, py_func, py_file):  # noqa: ANN001, ANN206 (numba's signature)
        if not Path(py_file).resolve().is_relative_to(PACKAGE.resolve()):
            return None
        return super().from_function(py_func, py_file)


CacheImpl._locator_classes.insert(0, PackageCacheLocator)
CACHE_DIR = compiled_cache_dir()  # read once: the digest reads every compiled source
config.CACHE_DIR = str(CACHE_DIR)
