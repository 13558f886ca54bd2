"""German words in the scripts: after a colon, a whole sentence addressed to the player
begins with a capital ("…: Du schaust zu"), as German writes it; the playtest read
"…: Du schaust zu" on one notice and "…: du schaust zu" on the next. A fragment after a
colon ("…: deine Karte für eine Münze spielen?") stays lower case, and "du" inside a
sentence is always lower case."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))
# Where a German dictionary opens: `const de = {` in i18n.js, `de: {` in the modules.
OPENS = re.compile(r"^\s*(const de = \{|de: \{)\s*$")
ENTRY = re.compile(r'^\s*"([^"]+)":\s*"(.*)",?\s*$')
# "…: du bist …", "…: dein Platz ist …": the informal "you" opening what follows a colon.
LOWER_AFTER_COLON = re.compile(r":\s+(du|dein\w*)\s")
# What follows the colon there is no sentence of its own: lower case is right.
FRAGMENTS = {"master.prompt.coin"}  # "…: deine Karte {value} für eine Münze spielen?"


def german_entries() -> list[tuple[str, int, str, str]]:
    found = []
    for path in SCRIPTS:
        inside = False
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if OPENS.match(line):
                inside = True
            elif inside and line.strip() in ("}", "},", "};"):
                inside = False
            elif inside and (entry := ENTRY.match(line)):
                found.append((path.name, number, entry.group(1), entry.group(2)))
    return found


def test_the_german_dictionaries_are_found() -> None:
    keys = {key for _, _, key, _ in german_entries()}
    assert {"room.seat_left", "presence.left", "since.title", "ev.self.found"} <= keys


def test_a_sentence_after_a_colon_begins_with_a_capital() -> None:
    lower = [
        f"{name}:{number}: {key}: {text[:90]}"
        for name, number, key, text in german_entries()
        if key not in FRAGMENTS and LOWER_AFTER_COLON.search(text)
    ]
    assert lower == []
