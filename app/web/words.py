# ruff: noqa: E501 (a sentence a line, as in the client's dictionaries it copies)
"""The words the server writes into pages itself, in English, French and German.

The pages' own words live in the client (`static/js/i18n.js`), which translates them
once it runs; but a link preview's crawler runs no script, and an error page may be
answered while the server cannot even read its database. So the title, the description
and the Open Graph tags of every page, and the text of the error pages, are written here,
in the visitor's language (`page_language`): the `lang` cookie the language picker keeps,
else the browser's `Accept-Language`, else English.

Entries whose key the client has too (`app.title`, `variant.classic`, ...) are copies of
the client's, word for word (tests/server/test_pages_audit.py holds them to it), so that
a page does not change its title when its script starts; `page.*` entries are the
server's alone.
"""

from __future__ import annotations

import re

from fastapi import Request

LANGUAGES = ("en", "fr", "de")
DEFAULT = "en"
# Open Graph wants a territory with the language.
LOCALES = {"en": "en_US", "fr": "fr_FR", "de": "de_DE"}
# Tags read from an Accept-Language header: a real browser sends a handful.
MAX_TAGS = 20

WORDS: dict[str, dict[str, str]] = {
    "en": {
        "app.title": "Labyrinth",
        "nav.lobby": "Lobby",
        "variant.classic": "Labyrinth (classic)",
        "variant.master": "Master Labyrinth",
        "variant.team": "Labyrinth Team Edition",
        "variant.cards": "Labyrinth, the card game",
        "variant.unknown": "Variant {id}",
        "list.two": " and ",
        "list.last": ", and ",
        "room.title": "Room {code}",
        "replay.title": "Replay",
        "rules.title": "Rules: {game}",
        "notfound.title": "Nothing here",
        "notfound.text": "This room or page does not exist (or no longer does).",
        "notfound.back": "Back to the lobby",
        "error.unavailable": "The server cannot reach its database; try again in a moment.",
        "lobby.winner": "Winner: {names}",
        "lobby.winners": "Winners: {names}",
        "lobby.team_won": "The team won",
        "lobby.team_lost": "The team lost",
        "lobby.no_winner": "No winner",
        "level.easy": "easy",
        "level.medium": "medium",
        "level.hard": "hard",
        "seat.computer": "Computer ({level})",
        "seat.computer.n": "Computer {n} ({level})",
        "intro.lead": "Four games of the moving maze, in the browser. Create a room, send its link to your friends, or watch a live game.",
        "intro.pitch.classic": "Shift the maze, reach your treasures one by one, and be the first back home.",
        "intro.pitch.master": "Take the treasures in order, defend them against the dragon and its guardians, then beat the dragon in a final duel.",
        "intro.pitch.team": "Play together against the Book of Daedalus: collect all 24 treasures before its pages run out.",
        "intro.pitch.cards": "Lay path cards, link them to cards of the same motif and take those cards home.",
        "page.room.invite": "{name} invites you to play {game} — open the link to take a seat or watch.",
        "page.room.waiting": "A game of {game} is waiting for players — open the link to take a seat or watch.",
        "page.playing.one": "{names} is playing {game} — open the link to watch live.",
        "page.playing": "{names} are playing {game} — open the link to watch live.",
        "page.finished": "{names} played {game} — open the link to see how it ended.",
        "page.finished.one": "{names} played {game} — open the link to see how it ended.",
        "page.replay": "{game}, played by {names}. {result}. Replay it move by move.",
        "page.rules": "{pitch} The rules of the game, step by step.",
        "page.unavailable": "Temporarily unavailable",
        "page.internal": "Something went wrong",
        "page.internal.text": "Something went wrong on our side. Try again in a moment; if it happens again, come back later.",
        "page.retry": "Try again",
    },
    "fr": {
        "app.title": "Labyrinthe",
        "nav.lobby": "Accueil",
        "variant.classic": "Labyrinthe (classique)",
        "variant.master": "Labyrinthe Master",
        "variant.team": "Labyrinthe Team Edition",
        "variant.cards": "Labyrinthe, le jeu de cartes",
        "variant.unknown": "Variante {id}",
        "list.two": " et ",
        "list.last": " et ",
        "room.title": "Salle {code}",
        "replay.title": "Revoir la partie",
        "rules.title": "Règles : {game}",
        "notfound.title": "Rien ici",
        "notfound.text": "Cette salle ou cette page n’existe pas (ou plus).",
        "notfound.back": "Retour à l’accueil",
        "error.unavailable": "Le serveur n’atteint pas sa base de données ; réessayez dans un instant.",
        "lobby.winner": "Gagnant : {names}",
        "lobby.winners": "Gagnants : {names}",
        "lobby.team_won": "L’équipe a gagné",
        "lobby.team_lost": "L’équipe a perdu",
        "lobby.no_winner": "Pas de gagnant",
        "level.easy": "facile",
        "level.medium": "moyen",
        "level.hard": "difficile",
        "seat.computer": "Ordinateur ({level})",
        "seat.computer.n": "Ordinateur {n} ({level})",
        "intro.lead": "Quatre jeux du labyrinthe mouvant, dans le navigateur. Créez une salle, envoyez son lien à vos amis, ou regardez une partie en direct.",
        "intro.pitch.classic": "Faites coulisser le labyrinthe, atteignez vos trésors un à un et revenez le premier au départ.",
        "intro.pitch.master": "Prenez les trésors dans l’ordre, défendez-les contre le dragon et ses gardiens, puis battez le dragon en duel final.",
        "intro.pitch.team": "Jouez ensemble contre le grimoire de Dédalus : récupérez les 24 trésors avant la fin de ses pages.",
        "intro.pitch.cards": "Posez des cartes chemin, reliez-les aux cartes du même motif et emportez-les.",
        "page.room.invite": "{name} vous invite à jouer à {game} — ouvrez le lien pour prendre place ou regarder.",
        "page.room.waiting": "Une partie de {game} attend ses joueurs — ouvrez le lien pour prendre place ou regarder.",
        "page.playing.one": "{names} joue à {game} — ouvrez le lien pour regarder en direct.",
        "page.playing": "{names} jouent à {game} — ouvrez le lien pour regarder en direct.",
        "page.finished.one": "{names} a joué à {game} — ouvrez le lien pour voir comment la partie s’est terminée.",
        "page.finished": "{names} ont joué à {game} — ouvrez le lien pour voir comment la partie s’est terminée.",
        "page.replay": "{game}, joué par {names}. {result}. Revoyez la partie coup par coup.",
        "page.rules": "{pitch} Les règles du jeu, pas à pas.",
        "page.unavailable": "Momentanément indisponible",
        "page.internal": "Une erreur est survenue",
        "page.internal.text": "Une erreur est survenue de notre côté. Réessayez dans un instant ; si cela se reproduit, revenez plus tard.",
        "page.retry": "Réessayer",
    },
    "de": {
        "app.title": "Labyrinth",
        "nav.lobby": "Lobby",
        "variant.classic": "Das verrückte Labyrinth (klassisch)",
        "variant.master": "Master Labyrinth",
        "variant.team": "Labyrinth Team Edition",
        "variant.cards": "Das verrückte Labyrinth, das Kartenspiel",
        "variant.unknown": "Variante {id}",
        "list.two": " und ",
        "list.last": " und ",
        "room.title": "Raum {code}",
        "replay.title": "Wiedergabe",
        "rules.title": "Regeln: {game}",
        "notfound.title": "Hier ist nichts",
        "notfound.text": "Diesen Raum oder diese Seite gibt es nicht (mehr).",
        "notfound.back": "Zurück zur Lobby",
        "error.unavailable": "Der Server erreicht seine Datenbank nicht; bitte gleich noch einmal versuchen.",
        "lobby.winner": "Sieg: {names}",
        "lobby.winners": "Sieg: {names}",
        "lobby.team_won": "Das Team hat gewonnen",
        "lobby.team_lost": "Das Team hat verloren",
        "lobby.no_winner": "Kein Sieger",
        "level.easy": "leicht",
        "level.medium": "mittel",
        "level.hard": "schwer",
        "seat.computer": "Computer ({level})",
        "seat.computer.n": "Computer {n} ({level})",
        "intro.lead": "Vier Spiele des verrückten Labyrinths, im Browser. Lege einen Raum an, schicke den Link an deine Freunde, oder schau einem laufenden Spiel zu.",
        "intro.pitch.classic": "Verschiebe das Labyrinth, erreiche deine Schätze einen nach dem anderen und sei als Erste(r) zurück am Start.",
        "intro.pitch.master": "Nimm die Schätze der Reihe nach, verteidige sie gegen den Drachen und seine Wächter und besiege ihn im Schlussduell.",
        "intro.pitch.team": "Spielt gemeinsam gegen das Buch von Daedalus: sammelt alle 24 Schätze, bevor seine Seiten ausgehen.",
        "intro.pitch.cards": "Lege Wegekarten an, verbinde sie mit Karten desselben Motivs und nimm diese Karten.",
        "page.room.invite": "{name} lädt dich zu einer Partie ein: {game} — öffne den Link, um Platz zu nehmen oder zuzuschauen.",
        "page.room.waiting": "{game}: eine Partie wartet auf Mitspieler — öffne den Link, um Platz zu nehmen oder zuzuschauen.",
        "page.playing.one": "{names} spielt {game} — öffne den Link, um live zuzuschauen.",
        "page.playing": "{names} spielen {game} — öffne den Link, um live zuzuschauen.",
        "page.finished.one": "{names} hat {game} gespielt — öffne den Link, um zu sehen, wie die Partie ausging.",
        "page.finished": "{names} haben {game} gespielt — öffne den Link, um zu sehen, wie die Partie ausging.",
        "page.replay": "{game}, gespielt von {names}. {result}. Zug für Zug nachspielen.",
        "page.rules": "{pitch} Die Spielregeln, Schritt für Schritt.",
        "page.unavailable": "Vorübergehend nicht erreichbar",
        "page.internal": "Etwas ist schiefgelaufen",
        "page.internal.text": "Bei uns ist etwas schiefgelaufen. Bitte gleich noch einmal versuchen; wenn es wieder passiert, später wiederkommen.",
        "page.retry": "Noch einmal versuchen",
    },
}

# French sets ? ! : ; apart by a space that must not break (as the client's `t` does).
_FRENCH_SPACE = re.compile(r" ([?!:;])")
_PLACEHOLDER = re.compile(r"\{(\w+)\}")
# The names the server gives computer seats (`app.rooms.table.computer_name`), which the
# pages show in their language (static/js/table.js, `shownName`).
_COMPUTER_NAME = re.compile(r"Computer(?: (\d+))? \((easy|medium|hard)\)")


def chosen_language(request: Request) -> str | None:
    """The language picked in the header, kept in the `lang` cookie (static/js/i18n.js);
    rendered into the page (`data-lang`) so that the client need not read any storage to
    start. None when nobody chose: the client then follows the browser."""
    value = request.cookies.get("lang")
    return value if value in LANGUAGES else None


def accepted_language(header: str) -> str | None:
    """The language of `LANGUAGES` an `Accept-Language` header likes best (`fr-CH;q=0.9`
    counts as `fr`), the first of equals; None if it names none of them."""
    best, best_q = None, 0.0
    for part in header.split(",")[:MAX_TAGS]:
        tag, _, params = part.partition(";")
        q = 1.0
        for param in params.split(";"):
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        if not 0.0 < q <= 1.0:  # also a `nan`
            continue
        base = tag.strip().lower().split("-")[0]
        if base in LANGUAGES and q > best_q:
            best, best_q = base, q
    return best


def page_language(request: Request) -> str:
    """The language the server writes a page's own words in: the one chosen, else the
    browser's (what the client would pick by itself), else English."""
    return (
        chosen_language(request)
        or accepted_language(request.headers.get("accept-language", ""))
        or DEFAULT
    )


def say(lang: str, key: str, **params: str) -> str:
    """`key` in `lang` (else English, else the key), each `{name}` replaced by its param;
    the French spacing rule applies to the words, not to what fills them (a name)."""
    text = WORDS.get(lang, {}).get(key) or WORDS[DEFAULT].get(key) or key
    if lang == "fr":
        text = _FRENCH_SPACE.sub("\u00a0\\1", text)
    return _PLACEHOLDER.sub(lambda m: params.get(m.group(1), m.group(0)), text)


def word_list(lang: str, items: list[str]) -> str:
    """`Ann`, `Ann and Bob`, `Ann, Bob, and Cy`: the client's `formatList`."""
    if len(items) < 2:
        return "".join(items)
    if len(items) == 2:
        return items[0] + say(lang, "list.two") + items[1]
    return ", ".join(items[:-1]) + say(lang, "list.last") + items[-1]


def game_name(lang: str, variant: str) -> str:
    """A game's name as the pages give it (`Labyrinth (classic)`)."""
    key = f"variant.{variant}"
    return say(lang, key) if key in WORDS[DEFAULT] else say(lang, "variant.unknown", id=variant)


def shown_name(lang: str, name: str) -> str:
    """A seat's name as the pages show it: a computer seat's by its level in `lang`
    (`Ordinateur (facile)`), anyone else's as it is."""
    match = _COMPUTER_NAME.fullmatch(name)
    if match is None:
        return name
    number, level = match.groups()
    level_word = say(lang, f"level.{level}")
    if number:
        return say(lang, "seat.computer.n", n=number, level=level_word)
    return say(lang, "seat.computer", level=level_word)
