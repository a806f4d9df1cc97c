"""Player names: what a name may be, and the key that makes look-alike names one name.

A name is NFKC-normalised, 2–20 characters (code points, after normalisation) of letters,
marks, digits and ``_ - .``, with single spaces inside, each of them one Unicode recommends
for identifiers (TR39's Identifier_Status=Allowed: no phonetic letters, small capitals,
modifier signs or limited-use scripts such as Cherokee); no control, format or invisible
characters (Unicode's Default_Ignorable_Code_Point, such as U+3164 HANGUL FILLER); not
mixing scripts the way spoofs do (ICU's "highly restrictive" level of Unicode TR39: Latin
with Han, kana or Hangul is fine, Latin with Cyrillic is not).

Two names are the same name when their **keys** are equal. The key reads a name as the eye
does:

- a Latin, Greek or Cyrillic letter with anything on it is that letter: its diacritics (the
  combining marks of no one script, such as U+0301, and those of these three alphabets) are
  dropped wherever they sit, and a letter Unicode names as another with a stroke, bar, hook
  or tail, or dotless, is read as that one (``ł`` is L WITH STROKE: ``l``; ``ø`` ``o``,
  ``đ`` ``d``, ``ħ`` ``h``, ``ı`` ``i``, Cyrillic ``қ`` ``к``): ``páulo``, ``paulȯ`` and
  ``pauło`` are ``paulo``;
- the ``_ - .`` and the spaces a name may contain are ignored: ``paulo.`` and ``pa ulo`` are
  ``paulo`` too, and so is a modifier letter not beside a letter of its own script
  (``ʻpaulo``, ``paーulo``; ``ラーメン`` keeps its ``ー``, ``人々`` its ``々``);
- a capital that looks like a Latin capital is read as it (Cyrillic ``КАТЕ`` is ``KATE``);
- what remains is case-folded and taken to its TR39 confusable skeleton (ICU's
  ``SpoofChecker.getSkeleton``), folded again (a digit's skeleton may be a capital: ``0`` is
  ``O``), with each letter whose capital looks like another letter read as that letter
  (``I`` looks like ``l``: so ``i`` is read ``l``, because ``bill`` is ``BILL`` by case and
  ``BILL`` looks like ``BlLL``).

``admin``, ``ADMIN``, ``ＡＤＭＩＮ``, Cyrillic ``аdmin`` and ``𝐚𝐝𝐦𝐢𝐧`` share one key, as do
``bill`` and ``biII``, ``bob`` and ``b0b``; the database keeps it unique. Other scripts' own
marks are parts of their letters and stay: kana's voicing marks (``が`` is not ``か``,
``パ`` not ``ハ``), Indic vowel signs, Thai tone marks, Hebrew and Arabic points; Han and
Hangul are not folded (``張三`` is not ``张三``). Letters are not transliterated (``Þór`` is
not ``Thor``, ``Ægir`` is ``Aegir`` only because the two look alike).

The price: names that differ only by accents, strokes, punctuation or spaces are one name,
held by whoever registered first: ``José`` and ``Jose``, ``Müller`` and ``Muller``,
``Łukasz`` and ``Lukasz``, Vietnamese ``Lê`` and ``Le``, Russian ``Майя`` and ``Маия`` (``й``
is ``и`` with a breve), Kazakh ``қ`` and ``к``, ``Ana-Lee``, ``Ana Lee`` and ``AnaLee``,
``李 四`` and ``李四``; so are a few names alike only in capitals (``Ali`` and ``All``).

>>> normalise("ＡＤＭＩＮ")
'ADMIN'
>>> len({key(n) for n in ["admin", "ADMIN", "ＡＤＭＩＮ", "аdmin", "𝐚𝐝𝐦𝐢𝐧"]})
1
>>> len({key(n) for n in ["paulo", "paulo.", "pauło", "paulȯ", "páulo", "pa ulo"]})
1
>>> key("張三") == key("张三"), key("がき") == key("かき")  # different characters
(False, False)
"""

from __future__ import annotations

import functools
import itertools
import logging
import re
import threading
import unicodedata
from collections.abc import Callable, Iterable

import icu
import sqlalchemy as sa

from paiju.server.errors import ServerError

__all__ = [
    "MAX_LENGTH",
    "MIN_LENGTH",
    "RESERVED",
    "assign_keys",
    "key",
    "lenient_key",
    "normalise",
    "rekey_accounts",
    "rekey_migration",
]

MIN_LENGTH = 2
MAX_LENGTH = 20
_PUNCTUATION = frozenset("_-.")
_IGNORED = _PUNCTUATION | {" "}  # what the key does not read
_LOCK = threading.Lock()  # one ICU checker, used from worker threads
_CHECKER = icu.SpoofChecker()
_CHECKER.setChecks(
    icu.USpoofChecks.RESTRICTION_LEVEL | icu.USpoofChecks.INVISIBLE | icu.USpoofChecks.MIXED_NUMBERS
)
_CHECKER.setRestrictionLevel(icu.URestrictionLevel.HIGHLY_RESTRICTIVE)
_IGNORABLE = icu.UProperty.DEFAULT_IGNORABLE_CODE_POINT
#: what a new name may be written with: the characters TR39 recommends for identifiers
#: (Identifier_Status=Allowed: the scripts in everyday use, without phonetic letters, small
#: capitals, modifier signs or historic and limited-use scripts such as Cherokee, whose
#: capitals are Latin's to the eye), with its few inclusions (``- .`` and the like)
_EVERYDAY = icu.UnicodeSet()  # (a copy of ICU's frozen sets would be frozen too)
_EVERYDAY.addAll(icu.SpoofChecker.getRecommendedUnicodeSet())
_EVERYDAY.addAll(icu.SpoofChecker.getInclusionUnicodeSet()).add(" ").add("_").freeze()
_MODIFIER = icu.UCharCategory.MODIFIER_LETTER


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
    >>> normalise("._")  # its key, without the punctuation, would be empty
    Traceback (most recent call last):
    ...
    paiju.server.errors.ServerError: a name needs a letter or a digit

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
    if any(not _EVERYDAY.contains(ch) for ch in name):
        raise _bad(
            "a name is written in everyday letters (no phonetic letters, small capitals, "
            "modifier signs or historic scripts)"
        )
    for before, ch in itertools.pairwise(" " + name):
        if unicodedata.category(ch)[0] == "M" and unicodedata.category(before)[0] not in "LM":
            raise _bad("a name may not begin with a mark, nor set one after a space or _ - .")
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
    found = key(name)
    if not found:
        raise _bad("a name needs a letter or a digit")
    if found in _RESERVED_KEYS:
        raise _bad("that name is the house's (it takes the fees): choose another")
    return name


def key(name: str) -> str:
    """The key of a valid (normalised) name: its diacritics dropped and its struck or dotless
    letters read plain, its ``_ - .`` and spaces ignored, then its TR39 skeleton,
    case-insensitive, a letter whose capital looks like another letter read as that letter.

    >>> key("Modern") == key("rnodern"), key("ana1") == key("anal")
    (True, True)
    >>> key("biII") == key("bill") == key("BILL"), key("b0b") == key("bob")
    (True, True)
    >>> key("Łukasz") == key("lukasz"), key("r.n") == key("m"), key("Ana-Lee") == key("ana lee")
    (True, True, True)
    """
    # marks go before case folding, which would turn one of them (U+0345) into a letter (ι)
    text = _fold(unicodedata.normalize("NFKC", name))
    # a capital that looks like a Latin one is read as it before case is folded: Cyrillic
    # КАТЕ is KATE, though their small letters differ (кате is not kate)
    text = "".join(map(_capital, text))
    text = unicodedata.normalize("NFKC", text.casefold())
    # the name's own punctuation only: a letter whose skeleton is "." (٠, an Arabic zero) stays
    text = _skeleton(_fold("".join(ch for ch in text if ch not in _IGNORED)))
    for _ in range(_ROUNDS):
        # a skeleton may be a decorated letter (ε's is ꞓ, C WITH BAR) or a letter with a mark
        # (ɵ's is o with a stroke overlay): read as the typed one is
        plain = _fold(text, skeleton=True)
        if plain == text:
            break
        text = _skeleton(plain)
    return text


_ROUNDS = 4  # one suffices for every letter; the bound only guarantees an end
_ALPHABETS = "[[[:Latin:][:Greek:][:Cyrillic:]]&[:L:]]"
_DIACRITIC_SCRIPTS = frozenset(
    {
        icu.UScriptCode.INHERITED,
        icu.UScriptCode.COMMON,
        icu.UScriptCode.LATIN,
        icu.UScriptCode.GREEK,
        icu.UScriptCode.CYRILLIC,
    }
)
_MARKS = (icu.UCharCategory.NON_SPACING_MARK, icu.UCharCategory.ENCLOSING_MARK)
_ALL_MARKS = (*_MARKS, icu.UCharCategory.COMBINING_SPACING_MARK)
_YPOGEGRAMMENI = "\u0345"
_ALPHABETIC_SCRIPTS = frozenset(
    {icu.UScriptCode.LATIN, icu.UScriptCode.GREEK, icu.UScriptCode.CYRILLIC}
)


@functools.lru_cache(maxsize=4096)
def _diacritic(ch: str) -> bool:
    """Whether ``ch`` is a mark the key drops: a combining mark of no one script (Inherited,
    such as U+0301) or of Latin, Greek or Cyrillic. A mark only other scripts use (kana's
    U+3099, Arabic's and Hebrew's points, Indic and Thai signs) is part of a letter there.

    >>> _diacritic("\\u0301"), _diacritic("\\u0483"), _diacritic("\\u3099"), _diacritic("a")
    (True, True, False, False)
    """
    if icu.Char.charType(ch) not in _MARKS:
        return False
    return any(s in _DIACRITIC_SCRIPTS for s in icu.Script.getScriptExtensions(ord(ch)))


@functools.lru_cache(maxsize=4096)
def _alphabetic(ch: str) -> bool:
    """Whether ``ch`` is a letter of Latin, Greek or Cyrillic, whose marks are diacritics
    whatever script they come from.

    >>> _alphabetic("o"), _alphabetic("й"), _alphabetic("か"), _alphabetic("\u0301")
    (True, True, False, False)
    """
    if not icu.Char.isalpha(ch):
        return False
    return any(s in _ALPHABETIC_SCRIPTS for s in icu.Script.getScriptExtensions(ord(ch)))


@functools.lru_cache(maxsize=4096)
def _scripts(ch: str) -> frozenset[int]:
    """The scripts ``ch`` is written in (its Script_Extensions).

    >>> sorted(_scripts("ー")) == sorted([icu.UScriptCode.HIRAGANA, icu.UScriptCode.KATAKANA])
    True
    """
    return frozenset(icu.Script.getScriptExtensions(ord(ch)))


def _fold(text: str, skeleton: bool = False) -> str:
    """``text`` with its decorated Latin, Greek and Cyrillic letters undecorated and its
    diacritics dropped (NFC): a mark of no one script or of those three, and any mark on a
    letter of those three (a kana voicing mark set on an ``o`` is not a kana).

    >>> _fold("Páułȯ Nguyễn қ がき")
    'Paulo Nguyen к がき'
    >>> _fold("paulo\u3099"), _fold("pau\u309alo"), _fold("ha\u302e")
    ('paulo', 'paulo', 'ha')
    >>> _fold("ᾀ"), _fold("ἈΙ"), _fold("a\u0345")
    ('αι', 'ΑΙ', 'a')
    >>> _fold("ʻpaーulo"), _fold("ラーメン")  # a modifier letter beside a letter of its script
    ('paulo', 'ラーメン')

    A ``skeleton``'s marks are the skeleton's own (kana's voicing marks become Latin ones:
    パ's is 八 with a ring above): only those on a Latin, Greek or Cyrillic letter go.

    >>> _fold("\u516b\u030a", skeleton=True) == "\u516b\u030a", _fold("o\u0335", skeleton=True)
    (True, 'o')
    """
    kept: list[str] = []
    scripts: frozenset[int] = frozenset()  # the scripts of the last letter kept
    on_alphabet = False  # the last letter the marks that follow sit on is Latin, Greek, Cyrillic
    on_greek = False
    # decomposed first: a letter that decomposes keeps its parts (ᾀ's iota subscript); the
    # table undecorates those that do not (ł, ø)
    for ch in unicodedata.normalize("NFD", text):
        if icu.Char.charType(ch) in _ALL_MARKS:
            if ch == _YPOGEGRAMMENI and on_greek:
                kept.append("ι")  # the iota subscript is an iota: ᾀ's capitals are ἈΙ
                continue
            if on_alphabet or (_diacritic(ch) and not skeleton):
                continue
        elif icu.Char.charType(ch) == _MODIFIER and not skeleton:
            # a modifier letter lengthens or marks the letter before it in its own script
            # (ー after kana, 々 after Han); elsewhere (ʻ, ー among Latin) the eye skips it
            if scripts.isdisjoint(_scripts(ch)):
                continue
        else:
            ch = _UNDECORATED.get(ch, ch)
            if ch not in _IGNORED:  # (a space or _ - . the key skips leaves the script on)
                scripts = _scripts(ch) if icu.Char.isalpha(ch) else frozenset()
            on_alphabet = _alphabetic(ch)
            on_greek = on_alphabet and "GREEK" in unicodedata.name(ch, "")
        kept.append(ch)
    return unicodedata.normalize("NFC", "".join(kept))


def _undecorated() -> dict[str, str]:
    """Each Latin, Greek or Cyrillic letter that Unicode names as another letter with
    something (``ł`` is LATIN SMALL LETTER L WITH STROKE), or dotless, mapped to that letter;
    those that decompose (``á``) lose their marks by NFD instead. A letter with another letter
    (``ǈ``, L WITH SMALL LETTER J) is not one letter decorated."""
    letters = {icu.Char.charName(ch): ch for ch in icu.UnicodeSet(_ALPHABETS)}
    decorated = re.compile(
        r"(\w+ (?:SMALL|CAPITAL) LETTER) (?:DOTLESS (\w+)|(.+?) WITH (?!.*LETTER).*)"
    )
    table = {}
    for name, ch in letters.items():
        found = decorated.fullmatch(name)
        base = letters.get(f"{found[1]} {found[2] or found[3]}") if found else None
        if base is not None:
            table[ch] = base
    for ch, base in table.items():  # ɟ is DOTLESS J WITH STROKE: ȷ, then j
        while base in table:
            base = table[base]
        table[ch] = base
    return table


#: letters the eye reads as another that neither Unicode's names nor TR39's confusables say
#: so of (kra, Old Polish o, sigmoid s)
_LOOKALIKE = {"ĸ": "k", "\ua7c0": "O", "\ua7c1": "o", "\ua7d8": "S", "\ua7d9": "s"}
_UNDECORATED = {**_undecorated(), **_LOOKALIKE}


@functools.lru_cache(maxsize=4096)
def _capital(ch: str) -> str:
    """The Latin capital a capital looks like (its TR39 skeleton, when that is one), else
    itself.

    >>> _capital("К"), _capital("Η"), _capital("Ж"), _capital("k")
    ('K', 'H', 'Ж', 'k')
    """
    if not ch.isupper():
        return ch
    with _LOCK:
        look: str = _CHECKER.getSkeleton(0, ch)
    return look if len(look) == 1 and look.isascii() and look.isalpha() else ch


def _skeleton(text: str) -> str:
    """The TR39 skeleton of case-folded ``text``, case-insensitive, each letter whose capital
    looks like another letter read as that letter.

    >>> _skeleton("bill"), _skeleton("b0b")
    ('blll', 'bob')
    """
    with _LOCK:
        skeleton: str = _CHECKER.getSkeleton(0, text)
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
    names up by, and what migrations 0004, 0006, 0008 and 0009 gave the names registered before
    these rules (invisible and control characters dropped, the ends stripped first).

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


def rekey_accounts(bind: sa.Connection, log: logging.Logger) -> None:
    """Compute every account's ``name_key`` again by today's :func:`key` (the migrations that
    change the key: 0006, 0008, 0009), the oldest first, the house's name before all, with the
    collisions of :func:`assign_keys`.

    >>> from paiju.server.db import make_engine, migrate
    >>> engine = make_engine("sqlite://"); migrate(engine)
    >>> with engine.begin() as c:
    ...     rekey_accounts(c, logging.getLogger("x"))
    """
    accounts = sa.table(
        "accounts", sa.column("id"), sa.column("name"), sa.column("name_key"),
        sa.column("is_house"),
    )  # fmt: skip
    rows = bind.execute(
        sa.select(accounts.c.id, accounts.c.name).order_by(
            accounts.c.is_house.desc(),
            accounts.c.id,  # the house's name first, as it was
        )
    ).all()
    keys = assign_keys([(int(i), str(n)) for i, n in rows], log)
    # cleared first: a key may move from one account to another (unique at every step)
    bind.execute(accounts.update().values(name_key=None))
    for account_id, found in keys.items():
        if found is not None:
            bind.execute(
                accounts.update().where(accounts.c.id == account_id).values(name_key=found)
            )


def rekey_migration() -> tuple[Callable[[], None], Callable[[], None]]:
    """A migration's ``upgrade`` and ``downgrade`` that compute every account's key again by
    today's :func:`key` (:func:`rekey_accounts`). Where two existing names now share a key,
    the older account keeps it and the newer keeps a null key (it logs in by its exact name
    and plays on); each collision is logged as a warning on ``paiju.migrations``. The
    downgrade leaves the keys as they are (an account still logs in by its exact name).

    >>> upgrade, downgrade = rekey_migration()
    >>> downgrade()
    """
    migrations = logging.getLogger("paiju.migrations")

    def upgrade() -> None:
        from alembic import op

        rekey_accounts(op.get_bind(), migrations)

    def downgrade() -> None:
        """The keys stay as they are."""

    return upgrade, downgrade
