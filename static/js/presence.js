/**
 * Who is connected, in words: a seat's dot with "reconnecting…" beside it when its player
 * dropped (a grey dot alone says nothing), and the news lines for a player who leaves or
 * comes back. One's own lost connection is said by the room page's banner.
 */

import { h } from "./dom.js";
import { addTranslations, t } from "./i18n.js";

addTranslations({
  en: {
    "presence.reconnecting": "reconnecting…",
    "presence.not_here": "not here",
    "presence.away": "away",
    // not "left": that is the word for leaving the game for good (away.left_news)
    "presence.left": "{name} is disconnected — waiting for them to reconnect",
    "presence.back": "{name} is back",
    "presence.offline": "You are offline — reconnecting… Nothing you do is sent until the connection is back.",
    "presence.offline_click": "Not sent: you are offline. Wait until the connection is back.",
    "presence.server_lost": "The connection to the game was lost — reconnecting… Nothing you do is sent until it is back.",
    "presence.server_lost_click": "Not sent: the connection to the game is down. Wait until it is back.",
  },
  fr: {
    "presence.reconnecting": "reconnexion…",
    "presence.not_here": "pas là",
    "presence.away": "ne répond plus",
    "presence.left": "{name} a perdu la connexion — en attente de son retour",
    "presence.back": "{name} est de retour",
    "presence.offline": "Vous êtes hors ligne — reconnexion… Rien n’est envoyé tant que la connexion n’est pas revenue.",
    "presence.offline_click": "Non envoyé : vous êtes hors ligne. Attendez le retour de la connexion.",
    "presence.server_lost": "La connexion à la partie est perdue — reconnexion… Rien n’est envoyé tant qu’elle n’est pas revenue.",
    "presence.server_lost_click": "Non envoyé : la connexion à la partie est coupée. Attendez son retour.",
  },
  de: {
    "presence.reconnecting": "verbindet neu…",
    "presence.not_here": "nicht da",
    "presence.away": "abwesend",
    "presence.left": "{name} hat die Verbindung verloren — wir warten auf die Rückkehr",
    "presence.back": "{name} ist zurück",
    "presence.offline": "Du bist offline — verbinde neu… Nichts wird gesendet, bis die Verbindung zurück ist.",
    "presence.offline_click": "Nicht gesendet: Du bist offline. Warte, bis die Verbindung zurück ist.",
    "presence.server_lost": "Die Verbindung zum Spiel ist unterbrochen — verbinde neu… Nichts wird gesendet, bis sie zurück ist.",
    "presence.server_lost_click": "Nicht gesendet: die Verbindung zum Spiel ist unterbrochen. Warte, bis sie zurück ist.",
  },
});

/**
 * A seat's connection: a dot, and the word when it is down. During a game a dropped
 * player is "reconnecting…" (a game holds its seat for them); before it, a seat whose page
 * is closed (or was never opened: a seat joined through the API) is only "not here". A
 * player gone longer than the room waits (`away`: the others may let the computer play)
 * is "away", no longer "reconnecting…", which promised a return the banner doubts. A seat
 * the computer plays for its player carries the move list's label ("computer").
 * @param {boolean|"away"|"computer-away"|"computer-left"} connected
 * @param {boolean} [waiting] the room waits for its game to start
 */
export function connMark(connected, waiting = false) {
  if (connected === "computer-away" || connected === "computer-left") {
    // The computer plays the seat: the row says so, as the move list labels its moves.
    const reason = connected.slice("computer-".length);
    return h("span", { class: "conn-mark played", "data-testid": "conn-mark", "data-played": reason },
      h("span", { class: "log-cause" }, t(`cause.${reason}`)));
  }
  const away = connected === "away";
  const on = connected === true;
  const label = t(on ? "room.connected" : "room.disconnected");
  const word = waiting ? "presence.not_here" : away ? "presence.away" : "presence.reconnecting";
  return h("span", {
    class: "conn-mark" + (on ? "" : " off"), "data-testid": "conn-mark", "data-connected": on ? "true" : "false",
    "data-away": away ? "true" : null,
  },
    on ? null : h("span", { class: "conn-word" }, t(word)),
    h("span", { class: "conn-dot " + (on ? "on" : "off"), title: label, "aria-label": label, role: "img" }));
}

/**
 * News for the seats whose connection changed between two room messages (none on the
 * first one, nor for seats that are new or gone).
 * @param {{seat: number, name: string, connected: boolean}[]|null} before
 * @param {{seat: number, name: string, connected: boolean}[]} after
 * @param {number|null|number[]} own the viewer's seat, or every seat played on this device
 *   (pass-and-play): the banner says one's own state, and the people at one device see each
 *   other come and go without being told (each local seat's socket connects on its own)
 */
export function presenceNews(before, after, own) {
  return presenceChanges(before, after, own).map((change) => change.text);
}

/**
 * `presenceNews` with the seat each line is about and which way it went:
 * `[{seat, connected, text}]`.
 */
export function presenceChanges(before, after, own) {
  if (!before) return [];
  const mine = new Set(Array.isArray(own) ? own : [own]);
  const was = new Map(before.map((s) => [s.seat, !!s.connected]));
  const out = [];
  for (const s of after) {
    if (mine.has(s.seat) || !was.has(s.seat) || was.get(s.seat) === !!s.connected || s.kind === "bot") continue;
    // Whoever left the game on purpose is not "waiting to reconnect": the room says the
    // computer plays for them instead.
    if (!s.connected && s.computer && s.computer.reason === "left") continue;
    const text = t(s.connected ? "presence.back" : "presence.left", { name: s.name });
    out.push({ seat: s.seat, connected: !!s.connected, text });
  }
  return out;
}

/**
 * What one's own lost connection is called: "offline" only when the browser says its network
 * is gone; a server that restarts or a link that dropped is the game's connection, and
 * "you are offline" sent a player with a working network to check their Wi-Fi.
 * @param {boolean} [click] the words for an action that was not sent
 */
export function lostWords(click = false) {
  const offline = typeof navigator !== "undefined" && navigator.onLine === false;
  const key = offline ? "presence.offline" : "presence.server_lost";
  return t(click ? `${key}_click` : key);
}
