"""The one rule for text people type that others see: player names and chat lines.

Join, import and chat all go through here, so a name refused at a table is refused in an
imported record too, and what one person types can never hide from, impersonate or
overwhelm the others:

- valid Unicode only (no lone surrogates: they cannot be encoded, and a JSON encoder that
  meets one fails the whole message it is in);
- a bounded length after trimming, and a bounded length before it (a name of "A" and
  two million spaces is not "A");
- no control, format, bidi, private-use, unassigned or invisible characters, and no
  whitespace but the plain space inside a name; but the three invisible characters that
  ordinary spelling needs, each only where it joins or shapes something that shows: the
  zero-width joiner and non-joiner between two such characters (an emoji sequence such
  as 👩‍💻, a Persian word such as نرگس‌محمدی), an emoji or text presentation selector
  right after one (the heart ❤️ a phone keyboard inserts), and the tag characters that
  spell a region's flag after the black flag (🏴 + "gbsct" + cancel tag);
- at most `MAX_MARKS` combining marks on one character, and at least one character that
  shows;
- two names are the same name when their TR39 skeletons are equal case aside (Latin
  `Ann` and Cyrillic `Аnn`, `Helen` and `Ηelen` with a Greek capital Eta), the joiners
  and selectors above left out (`A‌nn` with a non-joiner is `Ann`): `same_name`, by the
  keys of `name_keys`.

Each refusal says why in a stable word (`TextError.reason`), which the pages put in
their own language.

Pure: no web or database imports. The confusables data is the Unicode consortium's
(`confusables.txt`), as shipped by the `confusable-homoglyphs` package.
"""

from __future__ import annotations

import json
import unicodedata
from collections.abc import Iterable
from functools import cache
from importlib import resources

MAX_NAME = 32
MAX_CHAT = 500
# Combining marks on one base character: enough for Vietnamese or stacked Indic vowels,
# not for the hundreds of "zalgo" text.
MAX_MARKS = 3
# Surrounding whitespace a name or chat line may carry before it is trimmed.
MAX_PADDING = 64

REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"})
# Invisible, but part of how people spell: allowed where they join or shape what shows.
JOINERS = frozenset("\u200c\u200d")  # zero-width non-joiner, zero-width joiner
PRESENTATION = frozenset("\ufe0e\ufe0f")  # text / emoji presentation of the one before
BLACK_FLAG = "\U0001f3f4"
TAGS = range(0xE0020, 0xE007F)  # tag characters, closed by the cancel tag
CANCEL_TAG = "\U000e007f"
MARKS = frozenset({"Mn", "Me"})
SHOWN = frozenset("LNSP")  # letters, numbers, symbols, punctuation (first letter)

# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt) outside the Cf
# category already refused, plus characters that draw nothing (Braille blank, the Hangul
# fillers): a name made of them looks empty.
_INVISIBLE_RANGES = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul choseong/jungseong fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian variation selectors
    (0x2800, 0x2800),  # Braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0x1D173, 0x1D17A),  # musical symbol formatting
    (0xE0100, 0xE01EF),  # variation selectors supplement
)


class TextError(ValueError):
    """Text refused by the rule: `code` is the protocol's stable error code, `reason` the
    rule it broke (`length`, `unicode`, `invisible`, `whitespace`, `marks`, `nothing_shown`),
    as stable, for a page to say in its language what `message` says in English."""

    def __init__(self, code: str, message: str, reason: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.reason = reason


def is_valid_unicode(text: str) -> bool:
    """True unless `text` holds a lone surrogate (which no UTF encoding can carry)."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def strings_valid(value: object) -> bool:
    """True when every string in a parsed JSON value (keys too) is valid Unicode."""
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if not is_valid_unicode(item):
                return False
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return True


def invisible(ch: str) -> bool:
    point = ord(ch)
    return any(low <= point <= high for low, high in _INVISIBLE_RANGES)


def _shows(ch: str) -> bool:
    return unicodedata.category(ch)[0] in SHOWN


def _spelling(text: str, at: int, after_shown: bool, in_flag: bool) -> bool:
    """Whether the invisible `text[at]` is one that spelling needs, where it stands:
    a joiner between two characters that show, a presentation selector right after
    one, a tag inside a flag's run after the black flag."""
    ch = text[at]
    if ch in JOINERS:
        return after_shown and at + 1 < len(text) and _shows(text[at + 1])
    if ch in PRESENTATION:
        return after_shown
    if ord(ch) in TAGS:
        return in_flag and CANCEL_TAG in text[at:]
    return ch == CANCEL_TAG and in_flag


def _check_characters(text: str, code: str, what: str, spaces: Iterable[str]) -> None:
    allowed_spaces = frozenset(spaces)
    marks = 0
    shown = False
    # the last character was one that shows, or a mark or selector on one
    after_shown = False
    in_flag = False  # inside the tags after a black flag
    for at, ch in enumerate(text):
        category = unicodedata.category(ch)
        if category in REFUSED_CATEGORIES or invisible(ch):
            if not _spelling(text, at, after_shown, in_flag):
                raise TextError(
                    code, f"{what} may not hold control or invisible characters", "invisible"
                )
            in_flag = in_flag and ch != CANCEL_TAG and ord(ch) in TAGS
            after_shown = ch in PRESENTATION or ch == CANCEL_TAG
            continue
        if category.startswith("Z") and ch not in allowed_spaces:
            raise TextError(code, f"{what} may hold no whitespace but plain spaces", "whitespace")
        if category in MARKS:
            marks += 1
            if not shown and not any(_shows(later) for later in text[at + 1 :]):
                # marks on nothing, and nothing after them shows: the text is empty to
                # the eye, which is what a person is told (not "too many marks")
                raise TextError(code, f"{what} has no visible character", "nothing_shown")
            if marks > MAX_MARKS or not shown:
                raise TextError(
                    code, f"{what} has too many combining marks on one character", "marks"
                )
            continue
        marks = 0
        after_shown = category[0] in SHOWN
        in_flag = ch == BLACK_FLAG
        shown = shown or after_shown
    if not shown:
        raise TextError(code, f"{what} has no visible character", "nothing_shown")


def _trimmed(raw: str, limit: int, code: str, what: str) -> str:
    if not isinstance(raw, str) or not is_valid_unicode(raw):
        raise TextError(code, f"{what} is not valid Unicode text", "unicode")
    if len(raw) > limit + MAX_PADDING:
        raise TextError(code, f"{what} has 1 to {limit} characters", "length")
    text = raw.strip()
    if not 1 <= len(text) <= limit:
        raise TextError(code, f"{what} has 1 to {limit} characters", "length")
    return text


def clean_name(raw: str) -> str:
    """A player's name, trimmed, or `TextError("bad_name")`: 1 to `MAX_NAME` characters
    that show, plain spaces only, no control, bidi or invisible characters."""
    name = _trimmed(raw, MAX_NAME, "bad_name", "a name")
    _check_characters(name, "bad_name", "a name", " ")
    return name


def clean_chat(raw: str) -> str:
    """A chat line, trimmed, or `TextError("bad_message")`: the name rule's character
    filter, with room for 500 characters and the common spaces."""
    text = _trimmed(raw, MAX_CHAT, "bad_message", "a chat line")
    _check_characters(text, "bad_message", "a chat line", " \u00a0\u202f\u3000")
    return text


@cache
def _prototypes() -> dict[str, str]:
    """Each confusable character to one fixed member of its class.

    The package's data pairs every `confusables.txt` source with its prototype both ways,
    so a class is a connected group; its representative is the multi-character
    prototype when it has one (`m` looks like `rn`), else its smallest member. Skeletons
    compare equal exactly when TR39's do; they are never shown.
    """
    data = resources.files("confusable_homoglyphs").joinpath("confusables.json").read_text("utf-8")
    pairs: dict[str, list[dict[str, str]]] = json.loads(data)
    parent: dict[str, str] = {}

    def find(x: str) -> str:
        parent.setdefault(x, x)
        while parent[x] != x:
            parent[x] = parent[parent[x]]
            x = parent[x]
        return x

    for source, targets in pairs.items():
        for target in targets:
            a, b = find(_bare(source)), find(_bare(target["c"]))
            if a != b:
                parent[max(a, b, key=_rank)] = min(a, b, key=_rank)
    return {member: find(member) for member in parent if len(member) == 1}


def _bare(member: str) -> str:
    # the data keeps the left-to-right marks that set off right-to-left examples
    return member.replace("\u200e", "").replace("\u200f", "") or member


def _rank(member: str) -> tuple[int, str]:
    # multi-character prototypes first, then the smallest code point
    return (0 if len(member) > 1 else 1, member)


def skeleton(text: str) -> str:
    """TR39's skeleton, up to the choice of each class's representative:
    NFD, each character to its class's representative, NFD again."""
    table = _prototypes()
    mapped = "".join(table.get(ch, ch) for ch in unicodedata.normalize("NFD", text))
    # a multi-character representative is made of characters with classes of their own
    mapped = "".join(table.get(ch, ch) for ch in mapped)
    return unicodedata.normalize("NFD", mapped)


def name_key(name: str) -> str:
    """One of the two keys of `name_keys`: case-folded, then skeleton (so `ann`, `ANN` and
    Cyrillic `Аnn` are one name). Alone it misses a capital that looks like a Latin one
    but folds to a small letter that does not (Greek `Ηelen` is not `Helen` by it):
    compare names with `same_name` or `name_keys`."""
    seen = "".join(ch for ch in name if not _unseen_spelling(ch))
    return skeleton(unicodedata.normalize("NFKC", seen).casefold()).casefold()


def _looks_key(name: str) -> str:
    """`name_key` of the name with each capital of another script that looks like a Latin
    capital read as that capital (`_latin_capitals`: Greek `Ηelen` is `Helen`, `ΖΟΕ` is
    `ZOE`). Latin letters are left as they are, so no two Latin names that are two by
    `name_key` meet by this key (`Ian` and `Lan`, though a capital I looks like an l)."""
    return name_key("".join(_latin_capital(ch) for ch in unicodedata.normalize("NFKC", name)))


@cache
def _latin_capitals() -> dict[str, str]:
    """Each capital letter outside ASCII that TR39 confuses with an ASCII capital, to that
    capital (Greek `Η` and Cyrillic `Н` to `H`, Cherokee `Ꭺ` to `A`). Capitals only: a
    small letter folds to itself, and the skeleton after folding finds its lookalike."""
    classes: dict[str, list[str]] = {}
    for member, representative in _prototypes().items():
        classes.setdefault(representative, []).append(member)
    table: dict[str, str] = {}
    for members in classes.values():
        ascii_capitals = sorted(m for m in members if "A" <= m <= "Z")
        if not ascii_capitals:
            continue
        for member in members:
            if not member.isascii() and unicodedata.category(member) in ("Lu", "Lt"):
                table[member] = ascii_capitals[0]
    return table


def _latin_capital(ch: str) -> str:
    """`ch`, or the ASCII capital it looks like (`_latin_capitals`), its accents kept:
    Greek `Ή` is `H` with an acute, as a Latin `H` with one would be."""
    table = _latin_capitals()
    decomposed = unicodedata.normalize("NFD", ch)
    if decomposed[0] in table:
        return table[decomposed[0]] + decomposed[1:]
    return ch


def name_keys(name: str) -> frozenset[str]:
    """The keys a name goes by in one room: two names are one name when they share a key
    (`same_name`), so a room that keeps every seat's keys in one set refuses any name
    that meets one of them.

    Two keys, because no one key can be blind to case and see every lookalike: Greek `Ν`
    looks like `N`, its small `ν` like `v`; a key that made `Ν`, `ν`, `N` and `v` one
    would make `Dave` and `Dane` one name. So:
    - folded, then skeleton (`name_key`): case in every script (`ΑΝΝΑ` and `Αννα`),
      and what small letters look like (`Daνid` and `David`);
    - the same after other scripts' capitals are read as the Latin capitals they look
      like (`_looks_key`): `Ηelen`, `ΗΕLΕΝ` and `helen`; `Βob` and `Bob`; `Ζoe` and
      `ZOE`, which folding first loses (`Η` folds to `η`, which looks like no `h`).
    """
    return frozenset({"folded:" + name_key(name), "looks:" + _looks_key(name)})


def same_name(one: str, other: str) -> bool:
    """Whether two names may not sit at one table: the rule `name_keys` describes."""
    return not name_keys(one).isdisjoint(name_keys(other))


def _unseen_spelling(ch: str) -> bool:
    return ch in JOINERS or ch in PRESENTATION or ord(ch) in TAGS or ch == CANCEL_TAG


def display_name(stored: str) -> str:
    """A stored name as it can always be shown and encoded, whatever older code let in:
    valid Unicode (a lone surrogate becomes U+FFFD), trimmed, at most `MAX_NAME`
    characters. A name that follows the rule comes back unchanged."""
    if not isinstance(stored, str):
        stored = str(stored)
    if not is_valid_unicode(stored):
        stored = stored.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    return stored.strip()[:MAX_NAME] or "?"
