"""Player names: what a name may be, and the key that makes look-alike names one name.

A name is NFKC-normalised, 2–20 characters (code points, after normalisation) of letters,
marks, digits and ``_ - .``, with single spaces inside; no control, format or invisible
characters (Unicode's Default_Ignorable_Code_Point, such as U+3164 HANGUL FILLER); not
mixing scripts the way spoofs do (ICU's "highly restrictive" level of Unicode TR39: Latin
with Han, kana or Hangul is fine, Latin with Cyrillic is not).

Two names are the same name when their **keys** are equal: the TR39 confusable skeleton
(ICU's ``SpoofChecker.getSkeleton``) of the case-folded NFKC form, case-folded again (a
digit's skeleton may be a capital: ``0`` is ``O``), with each letter whose capital looks like
another letter read as that letter (``I`` looks like ``l``: so ``i`` is read ``l``, because
``bill`` is ``BILL`` by case and ``BILL`` looks like ``BlLL``). ``admin``, ``ADMIN``,
``ＡＤＭＩＮ``, Cyrillic ``аdmin`` and ``𝐚𝐝𝐦𝐢𝐧`` share one key, as do ``bill`` and ``biII``,
``bob`` and ``b0b``; the database keeps it unique. The price: a few names that only look
alike in capitals are one name too (``Ali`` and ``All``).

>>> normalise("ＡＤＭＩＮ")
'ADMIN'
>>> len({key(n) for n in ["admin", "ADMIN", "ＡＤＭＩＮ", "аdmin", "𝐚𝐝𝐦𝐢𝐧"]})
1
>>> key("張三") == key("张三")  # different characters, not look-alikes
False
"""

from __future__ import annotations

import logging
import threading
import unicodedata
from collections.abc import Iterable

import icu

from paiju.server.errors import ServerError

__all__ = [
    "MAX_LENGTH",
    "MIN_LENGTH",
    "RESERVED",
    "assign_keys",
    "key",
    "lenient_key",
    "normalise",
]

MIN_LENGTH = 2
MAX_LENGTH = 20
_PUNCTUATION = frozenset("_-.")
_LOCK = threading.Lock()  # one ICU checker, used from worker threads
_CHECKER = icu.SpoofChecker()
_CHECKER.setChecks(
    icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.INVISIBLE | icu.USpoofChecks.MIXED_NUMBERS
)
_CHECKER.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT


#: Names a person may not take: what the settlements and the ledger call the house, in the
#: server's frames ("house") and on the page (系統), so that no row reads "house → house".
RESERVED = ("house", "系統")


def _bad(message: str) -> ServerError:
    return ServerError("bad_name", message)


def _invisible(ch: str) -> bool:
    cat = unicodedata.category(ch)
    if cat[0] == "C" or cat in ("Zl", "Zp"):  # control, format, surrogate, private, unassigned
        return True
    if cat == "Zs" and ch != " ":
        return True
    return bool(icu.Char.hasBinaryProperty(ch, _IGNORABLE))


def normalise(raw: object) -> str:
    """The name to store for ``raw`` (its NFKC form), or ``bad_name`` saying why not.

    >>> normalise("  ana")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a name may not begin or end with a space
    >>> normalise("ㅤㅤ")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a name may not contain control, format or invisible characters
    >>> normalise("аdmin")  # Cyrillic а among Latin letters
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a name may not mix scripts (such as Latin and Cyrillic)
    >>> normalise("House")
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: that name is the house's (it takes the fees): choose another

    Raises :class:`~paiju.server.errors.ServerError` ``bad_name`` (the message never quotes
    the input).
    """
    if not isinstance(raw, str):
        raise _bad("a name is text")
    name = unicodedata.normalize("NFKC", raw)
    if not MIN_LENGTH <= len(name) <= MAX_LENGTH:
        raise _bad(f"a name has {MIN_LENGTH}–{MAX_LENGTH} characters")
    if any(_invisible(ch) for ch in name):
        raise _bad("a name may not contain control, format or invisible characters")
    if name != name.strip():
        raise _bad("a name may not begin or end with a space")
    if "  " in name:
        raise _bad("a name may not contain two spaces in a row")
    for ch in name:
        if ch != " " and ch not in _PUNCTUATION and unicodedata.category(ch)[0] not in "LMN":
            raise _bad("a name is letters, digits, spaces and _ - .")
    if name.startswith("__"):
        raise _bad("names beginning with __ are reserved")
    with _LOCK:
        spoof = _CHECKER.check(name)
    if spoof & int(icu.USpoofChecks.INVISIBLE):
        raise _bad("a name may not stack the same mark twice")
    if spoof & int(icu.USpoofChecks.MIXED_NUMBERS):
        raise _bad("a name may not mix digits of different scripts")
    if spoof:
        raise _bad("a name may not mix scripts (such as Latin and Cyrillic)")
    if key(name) in _RESERVED_KEYS:
        raise _bad("that name is the house's (it takes the fees): choose another")
    return name


def key(name: str) -> str:
    """The key of a valid (normalised) name: its TR39 skeleton, case-insensitive, a letter
    whose capital looks like another letter read as that letter.

    >>> key("Modern") == key("rnodern"), key("ana1") == key("anal")
    (True, True)
    >>> key("biII") == key("bill") == key("BILL"), key("b0b") == key("bob")
    (True, True)
    """
    folded = unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())
    with _LOCK:
        skeleton: str = _CHECKER.getSkeleton(0, folded)
    twinned = "".join(_TWINS.get(ch, ch) for ch in skeleton.casefold())
    if twinned == skeleton:
        return skeleton
    with _LOCK:
        again: str = _CHECKER.getSkeleton(0, twinned)
    return again


def _twins() -> dict[str, str]:
    """Each case-folded letter whose capital's skeleton is another letter's (``i``: ``I``
    looks like ``l``), mapped to that letter, case-folded (the BMP's letters below U+3000:
    the scripts with case)."""
    twins = {}
    for cp in range(0x41, 0x3000):
        ch = chr(cp)
        up = ch.upper()
        if ch.casefold() != ch or len(up) != 1 or up == ch or up.casefold() != ch:
            continue
        own = _CHECKER.getSkeleton(0, ch).casefold()
        capital = _CHECKER.getSkeleton(0, up).casefold()
        if own != capital:
            twins[ch] = capital
    return twins


_TWINS = _twins()


def lenient_key(raw: str) -> str:
    """The key of any text, a valid name or not: what a login and the login throttle look
    names up by, and what migration 0004 gave the names registered before these rules
    (invisible and control characters dropped, the ends stripped first).

    >>> lenient_key("trailnl\\n") == key("trailnl"), lenient_key("x" * 500) == key("x" * 80)
    (True, True)
    """
    text = unicodedata.normalize("NFKC", raw[:400])
    text = "".join(ch for ch in text if ch == " " or not _invisible(ch)).strip()
    return key(text[:80])


_RESERVED_KEYS = frozenset(key(n) for n in RESERVED)


def assign_keys(rows: Iterable[tuple[int, str]], log: logging.Logger) -> dict[int, str | None]:
    """The key each existing account gets (the migrations that (re)compute keys): by
    :func:`lenient_key`, in the order given (oldest first); where two names share a key the
    older keeps it and the newer gets ``None`` (it logs in by its exact name and plays on),
    each collision logged as a warning.

    >>> import logging
    >>> assign_keys([(1, "bill"), (2, "biII"), (3, "ana")], logging.getLogger("x"))
    {1: 'blll', 2: None, 3: 'ana'}
    """
    owners: dict[str, tuple[int, str]] = {}
    keys: dict[int, str | None] = {}
    for account_id, name in rows:
        found = lenient_key(name)
        if found in owners:
            first_id, first_name = owners[found]
            log.warning(
                "name collision: account %s %r looks like account %s %r; it keeps its name "
                "and logs in by it exactly (name_key left null)",
                account_id, name, first_id, first_name,
            )  # fmt: skip
            keys[account_id] = None
            continue
        owners[found] = (account_id, name)
        keys[account_id] = found
    return keys
