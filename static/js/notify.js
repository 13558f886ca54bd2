/**
 * "Your turn": the tab's title, a short sound (on by default; the mute toggle is
 * remembered on this device) and, when the player allowed it, a browser notification
 * while the tab is hidden. Nothing here talks to the server.
 */

import { t } from "./i18n.js";

const MUTE_KEY = "labyrinth:mute";

export function isMuted() {
  try {
    return localStorage.getItem(MUTE_KEY) === "1";
  } catch {
    return false;
  }
}

export function setMuted(muted) {
  try {
    if (muted) localStorage.setItem(MUTE_KEY, "1");
    else localStorage.removeItem(MUTE_KEY);
  } catch {
    /* not remembered */
  }
}

let audio = null;

/** A short two-note chime made with WebAudio (no sound file to load). */
export function chime() {
  if (isMuted()) return false;
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const start = audio.currentTime;
    for (const [i, freq] of [660, 880].entries()) {
      const osc = audio.createOscillator();
      const gain = audio.createGain();
      osc.frequency.value = freq;
      gain.gain.setValueAtTime(0.0001, start + i * 0.12);
      gain.gain.exponentialRampToValueAtTime(0.15, start + i * 0.12 + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, start + i * 0.12 + 0.2);
      osc.connect(gain).connect(audio.destination);
      osc.start(start + i * 0.12);
      osc.stop(start + i * 0.12 + 0.22);
    }
    return true;
  } catch {
    return false;
  }
}

export function notificationsAllowed() {
  return typeof Notification !== "undefined" && Notification.permission === "granted";
}

export function canAskNotifications() {
  return typeof Notification !== "undefined" && Notification.permission === "default";
}

/** Ask the browser; the answer is the permission after it ("granted", "denied", or
 * "default" when the person closed the prompt without choosing). */
export async function askNotifications() {
  if (typeof Notification === "undefined") return "denied";
  try {
    return await Notification.requestPermission();
  } catch {
    return Notification.permission;
  }
}

/**
 * Called with each state: when the turn becomes this player's, tell them. Only a turn
 * seen passing counts: the first game view after a (re)load is where things stand, so a
 * player reloading on their own turn is not chimed at as though the turn had just come.
 */
export class TurnNotifier {
  constructor() {
    this.wasMine = null;
    this.count = 0;
  }

  /**
   * @param {boolean|null} mine whether it is this page's seat's turn now; null while the
   *   page shows no game yet (before the first state), which decides nothing
   * @param {string} roomTitle shown in a notification
   */
  update(mine, roomTitle) {
    if (mine === null) return false;
    const became = mine && this.wasMine === false;
    this.wasMine = mine;
    if (!became) return false;
    this.count += 1;
    document.documentElement.dataset.turnAlerts = String(this.count);
    chime();
    if (document.hidden && notificationsAllowed()) {
      try {
        const note = new Notification(t("notify.your_turn"), { body: roomTitle, tag: "labyrinth-turn" });
        note.onclick = () => window.focus();
      } catch {
        /* some browsers only notify from a service worker */
      }
    }
    return true;
  }
}
