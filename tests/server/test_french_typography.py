"""French words in the pages (the scripts' words and the rules pages): guillemets hold
what they quote with no-break spaces, so that no line ends on an opening « and none
begins with a closing » (a phone's lobby card showed "« Table" on one line and
"ouverte »." on the next)."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
SCRIPTS = sorted((ROOT / "static" / "js").glob("*.js"))
TEMPLATES = sorted((ROOT / "templates").rglob("*.html"))
# A guillemet with an ordinary space (or a line's end) on its inner side: a literal
# no-break space, the scripts' `\u00a0` or the pages' `&nbsp;` is what it takes.
LOOSE = re.compile(r"«( |$)|(^| )»")


def test_the_scripts_are_found() -> None:
    assert any(path.name == "i18n.js" for path in SCRIPTS)
    assert any(path.name == "classic.html" for path in TEMPLATES)


def test_no_guillemet_stands_apart_from_what_it_quotes() -> None:
    loose = [
        f"{path.name}:{number}: {line.strip()[:90]}"
        for path in SCRIPTS + TEMPLATES
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if LOOSE.search(line)
    ]
    assert loose == []
