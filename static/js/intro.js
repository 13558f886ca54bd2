/**
 * The lobby's introduction to the four games: each with a one-line pitch, its player
 * count and a link to its rules, so a visitor sees at once what can be played here.
 */

import { h } from "./dom.js";
import { addTranslations, t } from "./i18n.js";
import { VARIANTS } from "./variants.js";

addTranslations({
  en: {
    "intro.lead": "Four games of the moving maze, in the browser. Create a room, send its link to your friends, or watch a live game.",
    "intro.pitch.classic": "Shift the maze, reach your treasures one by one, and be the first back home.",
    "intro.pitch.master": "Take the treasures in order, defend them against the dragon and its guardians, then beat the dragon in a final duel.",
    "intro.pitch.team": "Play together against the Book of Daedalus: collect all 24 treasures before its pages run out.",
    "intro.pitch.cards": "Lay path cards, link them to cards of the same motif and take those cards home.",
    "intro.players": "{min}–{max} players",
    "intro.rules": "Rules",
    "intro.play": "Play this game",
    "intro.rules_named": "Rules: {name}",
    "intro.play_named": "Play this game: {name}",
  },
  fr: {
    "intro.lead": "Quatre jeux du labyrinthe mouvant, dans le navigateur. Créez une salle, envoyez son lien à vos amis, ou regardez une partie en direct.",
    "intro.pitch.classic": "Faites coulisser le labyrinthe, atteignez vos trésors un à un et revenez le premier au départ.",
    "intro.pitch.master": "Prenez les trésors dans l’ordre, défendez-les contre le dragon et ses gardiens, puis battez le dragon en duel final.",
    "intro.pitch.team": "Jouez ensemble contre le grimoire de Dédalus : récupérez les 24 trésors avant la fin de ses pages.",
    "intro.pitch.cards": "Posez des cartes chemin, reliez-les aux cartes du même motif et emportez-les.",
    "intro.players": "{min} à {max} joueurs",
    "intro.rules": "Règles",
    "intro.play": "Jouer à ce jeu",
    "intro.rules_named": "Règles : {name}",
    "intro.play_named": "Jouer à ce jeu : {name}",
  },
  de: {
    "intro.lead": "Vier Spiele des verrückten Labyrinths, im Browser. Lege einen Raum an, schicke den Link an deine Freunde, oder schau einem laufenden Spiel zu.",
    "intro.pitch.classic": "Verschiebe das Labyrinth, erreiche deine Schätze einen nach dem anderen und sei als Erste(r) zurück am Start.",
    "intro.pitch.master": "Nimm die Schätze der Reihe nach, verteidige sie gegen den Drachen und seine Wächter und besiege ihn im Schlussduell.",
    "intro.pitch.team": "Spielt gemeinsam gegen das Buch von Daedalus: sammelt alle 24 Schätze, bevor seine Seiten ausgehen.",
    "intro.pitch.cards": "Lege Wegekarten an, verbinde sie mit Karten desselben Motivs und nimm diese Karten.",
    "intro.players": "{min}–{max} Spieler",
    "intro.rules": "Regeln",
    "intro.play": "Dieses Spiel spielen",
    "intro.rules_named": "Regeln: {name}",
    "intro.play_named": "Dieses Spiel spielen: {name}",
  },
});

/**
 * Fill `list` with one entry per game, each with a button that calls `play(id)`: on a
 * phone the form to start one is four cards further down, and a stranger's first screen
 * had nothing to press.
 */
export function renderIntro(lead, list, play) {
  lead.textContent = t("intro.lead");
  list.replaceChildren(...VARIANTS.map((v) => h("li", { class: "game-intro", "data-testid": `intro-${v.id}` },
    h("strong", { class: "intro-name" }, t(v.label)),
    h("span", { class: "intro-pitch" }, t(`intro.pitch.${v.id}`)),
    h("div", { class: "intro-foot" },
      h("span", { class: "intro-meta" }, t("intro.players", { min: v.minPlayers, max: v.maxPlayers }), " · ",
        // Named with their game: a list of the page's links read "Rules" four times.
        h("a", { href: v.rules || `/rules/${v.id}`, "data-testid": `intro-rules-${v.id}`, "aria-label": t("intro.rules_named", { name: t(v.label) }) }, t("intro.rules"))),
      h("button", {
        type: "button", class: "intro-play", "data-testid": `intro-play-${v.id}`, "aria-label": t("intro.play_named", { name: t(v.label) }),
        on: { click: () => play(v.id) },
      }, t("intro.play"))))));
}
