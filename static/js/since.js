/**
 * What happened while a player was away: a page that comes back to a running game (a
 * reload, a reconnection, the tab opened again the next morning) finds the move list
 * grown, and the board changed under it; the log tells each move, but not which ones are
 * new, nor that the computer played some of them for this seat. This module keeps, per
 * device, the last move it showed of each game, and words what came after it.
 */

import { addTranslations, formatList, t } from "./i18n.js";
import { entryWords, eventWords } from "./movelog.js";

addTranslations({
  en: {
    "since.title": "While you were away:",
    "since.turns": "{n} turns were played.",
    "since.turns.one": "{n} turn was played.",
    "since.for_you.it": "The computer played it for you.",
    "since.for_named.it": "The computer played it for {name}.",
    "since.for_you": "The computer played {n} of them for you.",
    "since.for_you.one": "The computer played {n} of them for you.",
    "since.for_named": "The computer played {n} of them for {name}.",
    "since.for_named.one": "The computer played {n} of them for {name}.",
    "since.ok": "Got it",
    "since.mark": "while you were away",
    "since.turn_title": "Since your last turn:",
    "since.start_title": "Since the game began:",
    "since.then": ", then ",
    "since.turn_mark": "since your last turn",
    "since.by_computer": "{name} (played by the computer)",
    "since.you": "you",
    "since.your_turn": "The computer played your turn: {words}.",
    "since.earlier": "{n} earlier moves are in the move list.",
    "since.earlier.one": "{n} earlier move is in the move list.",
  },
  fr: {
    "since.title": "Pendant votre absence :",
    "since.turns": "{n} tours ont été joués.",
    "since.turns.one": "{n} tour a été joué.",
    "since.for_you.it": "L’ordinateur l’a joué pour vous.",
    "since.for_named.it": "L’ordinateur l’a joué pour {name}.",
    "since.for_you": "L’ordinateur en a joué {n} pour vous.",
    "since.for_you.one": "L’ordinateur en a joué {n} pour vous.",
    "since.for_named": "L’ordinateur en a joué {n} pour {name}.",
    "since.for_named.one": "L’ordinateur en a joué {n} pour {name}.",
    "since.ok": "Compris",
    "since.mark": "pendant votre absence",
    "since.turn_title": "Depuis votre dernier tour :",
    "since.start_title": "Depuis le début de la partie :",
    "since.then": ", puis ",
    "since.turn_mark": "depuis votre dernier tour",
    "since.by_computer": "{name} (joué par l’ordinateur)",
    "since.you": "vous",
    "since.your_turn": "L’ordinateur a joué votre tour : {words}.",
    "since.earlier": "{n} coups précédents sont dans la liste des coups.",
    "since.earlier.one": "{n} coup précédent est dans la liste des coups.",
  },
  de: {
    "since.title": "Während du weg warst:",
    "since.turns": "{n} Züge wurden gespielt.",
    "since.turns.one": "{n} Zug wurde gespielt.",
    "since.for_you.it": "Der Computer hat ihn für dich gespielt.",
    "since.for_named.it": "Der Computer hat ihn für {name} gespielt.",
    "since.for_you": "Der Computer hat {n} davon für dich gespielt.",
    "since.for_you.one": "Der Computer hat {n} davon für dich gespielt.",
    "since.for_named": "Der Computer hat {n} davon für {name} gespielt.",
    "since.for_named.one": "Der Computer hat {n} davon für {name} gespielt.",
    "since.ok": "Verstanden",
    "since.mark": "während du weg warst",
    "since.turn_title": "Seit deinem letzten Zug:",
    "since.start_title": "Seit Beginn der Partie:",
    "since.then": ", dann ",
    "since.turn_mark": "seit deinem letzten Zug",
    "since.by_computer": "{name} (vom Computer gespielt)",
    "since.you": "du",
    "since.your_turn": "Der Computer hat deinen Zug gespielt: {words}.",
    "since.earlier": "{n} frühere Schritte stehen in der Liste der Schritte.",
    "since.earlier.one": "{n} früherer Schritt steht in der Liste der Schritte.",
  },
});

/** A line of the summary, with a capital first letter when `capital` ("you found…",
 * "second phase: …"; not a player's name, spelt as they chose). */
function sentence(words, capital) {
  return (capital ? words.charAt(0).toLocaleUpperCase() + words.slice(1) : words) + ".";
}

/** The events a summary names: what changes the race (finds, takes, results). */
const TOLD = new Set(["found", "collected", "took", "lost", "duel_won", "final_duel", "won", "second_phase"]);

/** At most this many of those, the latest: a summary is read at a glance. */
const MAX_TOLD = 4;

/** Fewer moves than this, none of them the computer's for the seat, are no news: the
 * last one or two moves are in the log and on the board already. */
const WORTH = 3;

const PREFIX = "labyrinth:seen:";

function seenKey(code, gameId) {
  return `${PREFIX}${code}:${gameId}`;
}

/** The last move this device showed of the game, or null when it never showed it. */
export function loadSeen(code, gameId) {
  try {
    const value = localStorage.getItem(seenKey(code, gameId));
    const seq = value === null ? NaN : Number(value);
    return Number.isInteger(seq) && seq >= 0 ? seq : null;
  } catch {
    return null;  // storage refused (private mode): no summary, nothing breaks
  }
}

/** Remember that the page showed the game up to `seq`; the room's older games are let go. */
export function saveSeen(code, gameId, seq) {
  try {
    const key = seenKey(code, gameId);
    if (localStorage.getItem(key) === null) {
      const room = `${PREFIX}${code}:`;
      for (let i = localStorage.length - 1; i >= 0; i--) {
        const other = localStorage.key(i);
        if (other && other.startsWith(room) && other !== key) localStorage.removeItem(other);
      }
    }
    localStorage.setItem(key, String(seq));
  } catch {
    // storage full or refused: the next visit has no summary, which is all that is lost
  }
}

/**
 * A log's entries grouped by turn: a player's moves in a row are one turn (a classic
 * turn's push and move; a Master turn of two to five).
 * @template {{seat: number|null}} E
 * @param {E[]} entries
 * @returns {{seat: number|null, moves: E[]}[]}
 */
function byTurns(entries) {
  const turns = [];
  for (const e of entries) {
    const last = turns[turns.length - 1];
    if (last && last.seat === e.seat) last.moves.push(e);
    else turns.push({ seat: e.seat, moves: [e] });
  }
  return turns;
}

/** At most this many turns of the others, the latest, each whole, in a pass-and-play
 * turn's summary: a round of five others, with a turn to spare. (Counted in moves, a
 * round of Master, whose turns take two to five, lost whole turns and began mid-turn.) */
const MAX_TURNS = 6;

/**
 * What the others did since a seat's person last held a shared device (pass-and-play):
 * each turn in the log's words, by name ("Bob pushed row 4 from the left, then moved to
 * c3 · found the bat"), or null when nobody else moved. The turns are few (about a round),
 * so each move is said, not counted; the move list is far down a phone's page, and the
 * device was in other hands meanwhile. Earlier turns than `MAX_TURNS` are counted only.
 * @param {{seq: number, seat: number|null, notation: string, events?: object[]}[]} log
 * @param {number} seen the last seq shown to `seat`
 * @param {number} seat the seat whose person now holds the device
 * @param {{names: (seat: number) => string, variant?: string}} ctx
 * @returns {{moves: number, lines: string[]} | null}
 */
export function turnSummary(log, seen, seat, ctx) {
  // The seat's own turns are news too when the computer played them (its time ran out):
  // Bob read what Ann did, and not that his own turn had gone by without him.
  const others = log.filter((e) => e.seq > seen && (e.seat !== seat || standsIn(e)));
  if (!others.length) return null;
  // one line per turn: a player's moves in a row read as one sentence ("Bob pushed row 4
  // from the left, then moved to c3"), which keeps the banner short on a phone
  const turns = byTurns(others);
  const shown = turns.slice(-MAX_TURNS);
  const words = (e) => entryWords(e.notation, { variant: ctx.variant, names: ctx.names, seat: e.seat, events: e.events || [] });
  const who = (turn) => (turn.moves.some(standsIn) ? t("since.by_computer", { name: ctx.names(turn.seat) }) : ctx.names(turn.seat));
  // The reader's own turn, which the computer played (their time ran out), is said to
  // them: "The computer played your turn: pushed…", not "Bob (played by the computer)…".
  const line = (turn) => {
    const done = turn.moves.map(words).join(t("since.then"));
    return turn.seat === seat ? t("since.your_turn", { words: done }) : `${who(turn)} ${done}.`;
  };
  const lines = shown.map(line);
  // Turns left out are said to be, and where they are: a summary that began mid-round
  // read as the whole of it.
  const dropped = others.length - shown.reduce((n, turn) => n + turn.moves.length, 0);
  if (dropped) lines.unshift(t("since.earlier", { n: dropped }));
  return { moves: others.length, lines };
}

/** A move the computer played for a seat's person (its time ran out, or they were away);
 * not a computer's own seat's. */
function standsIn(e) {
  return typeof e.by === "string" && e.by.startsWith("computer:") && e.by !== "computer:seat";
}

/**
 * The summary of the moves after `seen` for the page's seats, or null when there is no
 * news worth a banner.
 * @param {{seq: number, seat: number|null, events?: object[], by?: string|null}[]} log
 * @param {number} seen the last seq this device showed
 * @param {number[]} seats the page's own seats (one, or several on a shared device)
 * @param {{names: (seat: number) => string, single: boolean}} ctx `single`: the page
 *   has one seat ("for you"), else seats are named
 * @returns {{moves: number, lines: string[]} | null}
 */
export function sinceSummary(log, seen, seats, ctx) {
  const missed = log.filter((e) => e.seq > seen);
  // Counted in turns, as players count: a classic turn's push and move were "2 moves".
  const turns = byTurns(missed);
  const played = new Map();
  for (const turn of turns) {
    const standIn = turn.moves.some(standsIn);
    if (seats.includes(turn.seat) && standIn) played.set(turn.seat, (played.get(turn.seat) || 0) + 1);
  }
  if (missed.length < WORTH && played.size === 0) return null;
  const lines = [t("since.turns", { n: turns.length })];
  for (const [seat, n] of played) {
    // "it" for the one turn there was (one seat's turns alternate with others')
    const form = n === turns.length ? ".it" : "";
    lines.push(ctx.single ? t(`since.for_you${form}`, { n }) : t(`since.for_named${form}`, { n, name: ctx.names(seat) }));
  }
  // "Bob found the emerald", read to Bob, was someone else's find: on a page of one seat
  // its own events are said to its player, as the rest of the page speaks ("you found the
  // emerald"; it read "Bob (you) found…"), and named "you" in a list (a shared device's
  // news names everyone).
  const you = ctx.single ? seats : [];
  const names = (s) => (you.includes(s) ? t("since.you") : ctx.names(s));
  const told = [];
  for (const e of missed) {
    for (const ev of e.events || []) {
      if (!TOLD.has(ev.type)) continue;
      const words = eventWords(ev, { names, you });
      // (a sentence that begins with a player's name keeps it as they spelt it)
      if (words) told.push({ words, named: typeof ev.seat === "number" && !you.includes(ev.seat) });
    }
  }
  const last = told.slice(-MAX_TOLD);
  if (last.length) lines.push(sentence(formatList(last.map((x) => x.words)), !last[0].named));
  return { moves: missed.length, lines };
}
