"""Sealed data files: tables shipped with a package, compressed, and refused when damaged.

A sealed blob is a magic line naming what it holds, the SHA-256 of the body, then the body
compressed with zlib. :func:`unseal` gives the body back only when all three hold, so a
truncated, altered or foreign file is never read as tables.

>>> blob = seal(b"PAIJU-EXAMPLE-1\\n", b"body")
>>> unseal(b"PAIJU-EXAMPLE-1\\n", blob)
b'body'
>>> unseal(b"PAIJU-OTHER-1\\n", blob) is None
True
"""

from __future__ import annotations

import hashlib
import zlib

__all__ = ["seal", "unseal"]

_DIGEST = 32  # SHA-256


def seal(magic: bytes, body: bytes) -> bytes:
    """The sealed blob of ``body`` under ``magic`` (see the module docstring).

    >>> seal(b"M\\n", b"x").startswith(b"M\\n")
    True
    """
    return magic + hashlib.sha256(body).digest() + zlib.compress(body, 9)


def unseal(magic: bytes, blob: bytes) -> bytes | None:
    """The body sealed in ``blob`` under ``magic``, or None when the blob is not one (another
    magic line, a digest that does not match, a body that does not decompress).

    >>> unseal(b"M\\n", b"garbage") is None
    True
    >>> sealed = bytearray(seal(b"M\\n", b"tables"))
    >>> sealed[-3] ^= 0xFF
    >>> unseal(b"M\\n", bytes(sealed)) is None
    True
    """
    if not blob.startswith(magic):
        return None
    digest = blob[len(magic) : len(magic) + _DIGEST]
    try:
        body = zlib.decompress(blob[len(magic) + _DIGEST :])
    except zlib.error:
        return None
    return body if hashlib.sha256(body).digest() == digest else None
