/**
 * Pass-and-play: several seats of one room played in one browser, the page acting for
 * whichever of them is to move.
 *
 * Why one WebSocket per local seat (and not one socket that says `hello` again with the
 * next seat's token): presence is per connection, so a seat without a socket of its own
 * would turn "away" after `AWAY_AFTER` seconds, offering the others a takeover and, with
 * nobody connected long enough, adjourning the game. With one socket each, every local
 * seat stays connected the whole game exactly as if each player had a device, and the
 * server needs nothing new: this is the public protocol, N times.
 *
 * `LocalSeatsSocket` looks like `RoomSocket` to the room page (events `message` and
 * `status`, `send`, `hello`, `connect`...), but only one seat's messages reach the page:
 * the seat it shows. Every decision (whose view to show, when to ask for the device to
 * be passed) is taken from one socket's states (the *primary*, the first local seat), so
 * the decisions follow one ordered stream whatever the order the sockets' messages
 * arrive in. Turns and actors are public in every view, so any seat's view will do.
 *
 * Secrets: the page only ever shows the view of the seat to move. The next person's view
 * is handed over only when they have tapped "I am ..." (`reveal()`), and then as a fresh
 * `sync` answer (state and move list as that seat may see them), so that nothing of the
 * previous seat's view (its target, its hand, its private events in the move list) is
 * mixed into the next one's. A computer's turn between two people plays out in a
 * spectator's view, from one more socket without a token (the *watcher*, opened at the
 * first such turn): the person who just played and the one who plays next may both be
 * looking, and neither's secrets are on the screen. The watcher's hello names one of the
 * device's seat tokens (`seated`), so the server counts it among no one's spectators.
 */

import { RoomSocket } from "./api.js";

/** Games whose views differ from seat to seat (classic targets, Master and card hands).
 * Team Edition hides face-down tiles from everyone alike: nothing to hide between seats. */
const SECRET_VARIANTS = new Set(["classic", "master", "cards"]);

/** Whether seats of `variantId` have secrets the device must be passed for. */
export function hasSecrets(variantId) {
  return SECRET_VARIANTS.has(variantId);
}

/** localStorage key of a room's local seats. */
function localKey(code) {
  return `labyrinth:local:${code}`;
}

/**
 * The seats this browser plays in a room: `[{seat, token, name}]`, by seat (empty: none).
 * @param {string} code
 * @returns {{seat: number, token: string, name: string}[]}
 */
export function loadLocalSeats(code) {
  try {
    const seats = JSON.parse(localStorage.getItem(localKey(code)) || "[]");
    if (!Array.isArray(seats)) return [];
    return seats
      .filter((s) => s && Number.isInteger(s.seat) && typeof s.token === "string" && s.token)
      .map((s) => ({ seat: s.seat, token: s.token, name: typeof s.name === "string" ? s.name : "" }))
      .sort((a, b) => a.seat - b.seat);
  } catch {
    return [];
  }
}

/** Keep a room's local seats (an empty list forgets them). */
export function saveLocalSeats(code, seats) {
  try {
    if (seats.length) localStorage.setItem(localKey(code), JSON.stringify(seats));
    else localStorage.removeItem(localKey(code));
  } catch {
    /* storage unavailable: pass-and-play lasts as long as the page */
  }
}

/** The seat to act in a running game's view (Master's duellist may act on another's turn). */
export function actorOf(view) {
  if (!view || view.status !== "playing" || !view.turn) return null;
  return view.turn.actor ?? view.turn.seat;
}

/**
 * The local seats' entries. Looked up by the seat number each holds now, never keyed by
 * it: numbers change when seats close a gap, possibly two at once and in any order.
 */
class SeatList {
  constructor() {
    /** @type {{seat: number, token: string, name: string, socket: RoomSocket, welcome: object|null}[]} */
    this.entries = [];
  }

  get(seat) {
    return this.entries.find((e) => e.seat === seat);
  }

  has(seat) {
    return this.entries.some((e) => e.seat === seat);
  }

  /** The seat numbers, in order. */
  keys() {
    return this.entries.map((e) => e.seat).sort((a, b) => a - b);
  }

  values() {
    return [...this.entries];
  }

  add(entry) {
    this.entries.push(entry);
  }

  remove(entry) {
    this.entries = this.entries.filter((e) => e !== entry);
  }
}

/** How long a person who has just played sees the result before the device is asked for
 * (their pawn's walk takes about half of it). */
export const PASS_AFTER_LOOK_MS = 1500;

/** `shown`, `pending` or `awaiting` for the watcher's spectator view (never a seat number). */
export const WATCH = "watch";

/**
 * The room's sockets, one per local seat (and the watcher), seen by the page as one.
 *
 * Events: `message` and `status` (as RoomSocket's, for the view shown); `pass` (detail
 * `{seat, name, color}`: hide everything and ask for the device to go to that seat's
 * player) and `reveal` (detail `{seat}`, a seat or `WATCH`: that view follows at once, as
 * a `welcome` and a `state` with its move list).
 */
export class LocalSeatsSocket extends EventTarget {
  /**
   * @param {string} code room code
   * @param {{seat: number, token: string, name: string}[]} seats the local seats
   * @param {{secrets: boolean, lookMs?: number}} opts `secrets`: whether seats' views
   *   differ (a shield between them); `lookMs`: how long the person who just played sees
   *   the result before the shield (0: at once)
   */
  constructor(code, seats, { secrets, lookMs = PASS_AFTER_LOOK_MS }) {
    super();
    this.code = code;
    this.secrets = secrets;
    this.lookMs = lookMs;
    this.local = new SeatList();
    for (const s of seats) this.add(s);
    /** the spectator socket for computers' turns, once one came (games with secrets) */
    this.watcher = null;
    /** the view whose messages reach the page: a local seat, `WATCH`, or null */
    this.shown = null;
    /** the seat the shield waits for (its player has not tapped yet) */
    this.pending = null;
    /** the view asked for (tapped, or no shield needed), until it arrives */
    this.awaiting = null;
    /** the last seat shown: the person holding the device */
    this.holder = null;
    /** the room as last sent, and the last view of the primary seat */
    this.room = null;
    this.view = null;
    /** the primary's last state's clock and last move (what the shield says of the turn) */
    this.clock = null;
    this.lastMove = null;
    this.started = false;
    /** the primary's last view was of a finished game: a playing view now is a new game's */
    this.over = false;
    /**
     * A new game ("Play again") began behind the shield: nobody's view of it is shown until
     * one is asked for (a tap, or a computer's turn in a spectator's view). The last game's
     * seat stayed shown, and its new hand or target was on the screen, in front of the
     * whole table, before the shield came up (or, when that seat moved first, at all).
     */
    this.veiled = false;
  }

  add({ seat, token, name }) {
    const socket = new RoomSocket(this.code, () => token);
    const entry = { seat, token, name, socket, welcome: null };
    socket.addEventListener("message", (ev) => this.onMessage(entry, ev.detail));
    socket.addEventListener("status", (ev) => this.onStatus(entry.seat, ev.detail));
    this.local.add(entry);
  }

  /** The spectator socket, opened at the first computer's turn between people. */
  watch() {
    if (this.watcher) return this.watcher;
    const socket = new RoomSocket(this.code, () => null, () => this.seatedToken());
    const entry = { seat: WATCH, token: null, name: "", socket, welcome: null };
    socket.addEventListener("message", (ev) => this.onWatcherMessage(entry, ev.detail));
    socket.addEventListener("status", (ev) => this.onStatus(WATCH, ev.detail));
    this.watcher = entry;
    if (this.started) socket.connect();
    return entry;
  }

  /** A local seat's entry, or the watcher's for `WATCH`. */
  entryOf(seat) {
    return seat === WATCH ? this.watcher : this.local.get(seat);
  }

  all() {
    return this.watcher ? [...this.local.values(), this.watcher] : this.local.values();
  }

  /** The first local seat: its states drive every decision. */
  get primary() {
    const seats = this.local.keys();
    return seats.length ? seats[0] : null;
  }

  statusSeat() {
    return this.shown ?? this.primary;
  }

  onStatus(seat, status) {
    if (seat === this.statusSeat()) this.dispatchEvent(new CustomEvent("status", { detail: status }));
  }

  /** The shown view's socket (the primary's before any is shown). */
  current() {
    const entry = this.entryOf(this.statusSeat());
    return entry ? entry.socket : null;
  }

  /** The shown seat's token (null while none is shown, or the watcher's view is). */
  get token() {
    const entry = this.shown === WATCH ? null : this.local.get(this.shown);
    return entry ? entry.token : null;
  }

  get status() {
    const socket = this.current();
    return socket ? socket.status : "gone";
  }

  connect() {
    this.started = true;
    for (const entry of this.all()) entry.socket.connect();
  }

  close() {
    for (const entry of this.all()) entry.socket.close();
  }

  reconnectNow() {
    for (const entry of this.all()) entry.socket.reconnectNow();
  }

  hello() {
    let sent = false;
    for (const entry of this.all()) sent = entry.socket.hello() || sent;
    return sent;
  }

  /** Send for the seat shown; nothing but chat goes out while the view changes. */
  send(msg) {
    if (msg.type === "chat") {
      // A line typed on the device is a player's, even while a computer's turn is shown.
      const entry = this.local.get(this.shown === WATCH || this.shown === null ? this.primary : this.shown);
      return entry ? entry.socket.send(msg) : false;
    }
    if (this.pending !== null || this.awaiting !== null || this.shown === WATCH) return false;
    const socket = this.current();
    return socket ? socket.send(msg) : false;
  }

  /** The player the shield names has tapped: ask for their own view. */
  reveal() {
    if (this.pending === null) return;
    this.awaiting = this.pending;
    this.pending = null;
    this.askView(this.awaiting);
  }

  /** Every local seat's token, by seat ("Play again" accepts for all of them). */
  tokens() {
    return this.seats().map((seat) => this.local.get(seat).token);
  }

  /** The seats this page plays, by seat number. */
  seats() {
    return this.local.keys();
  }

  // ------------------------------------------------------------------ incoming

  emit(msg) {
    this.dispatchEvent(new CustomEvent("message", { detail: msg }));
  }

  /** A token of a seat this device holds, for the watcher's hello (null: none left). */
  seatedToken() {
    const [first] = this.local.values();
    return first ? first.token : null;
  }

  get quiet() {
    return this.pending !== null || this.awaiting !== null;
  }

  onMessage(entry, msg) {
    if ((msg.type === "welcome" || msg.type === "room") && msg.room) this.room = msg.room;
    if (msg.type === "welcome") {
      entry.welcome = msg;
      if (msg.seat === null || msg.seat === undefined) {
        // The token no longer holds a seat (moved to another device, freed).
        this.drop(entry.seat);
        return;
      }
      if (msg.seat !== entry.seat) {
        this.renumber(entry, msg.seat);
        return;
      }
    }
    const seat = entry.seat;
    const primary = seat === this.primary;
    switch (msg.type) {
      case "welcome":
        if (seat === this.shown) this.emit(msg);
        else if (primary && this.shown === null) {
          if (msg.room && msg.room.status === "lobby") {
            // No game yet: nothing secret to hide, the first seat's page it is.
            this.shown = seat;
            this.emit(msg);
          } else {
            this.emit({ ...msg, seat: null });
          }
        }
        return;
      case "room":
        // Every socket hears these alike: the primary's copy reaches the page. A seat the
        // computer took or gave back changes whose turn the device shows.
        if (primary) {
          this.emit(msg);
          this.decide(this.view);
        }
        return;
      case "chat":
        if (primary) this.emit(msg);
        return;
      case "state":
        this.onState(entry, msg);
        if (primary) {
          this.view = msg.view;
          // the turn's clock and the last move, for the shield (time left; a turn the
          // computer played because its time ran out)
          this.clock = msg.clock || null;
          this.lastMove = msg.last || null;
          this.decide(msg.view);
        }
        return;
      case "seat_moved":
        this.drop(seat, msg);
        return;
      case "error":
        if (msg.code === "unauthorized") {
          this.drop(seat);
          return;
        }
        if (seat === this.shown && !this.quiet) this.emit(msg);
        return;
      default:
        // legal answers and anything else: the shown seat's only.
        if (seat === this.shown && !this.quiet) this.emit(msg);
    }
  }

  /** The watcher's messages: only its welcome and states matter (the seats hear the rest). */
  onWatcherMessage(entry, msg) {
    if (msg.type === "welcome") {
      entry.welcome = msg;
      if (this.shown === WATCH) this.emit(msg);
    } else if (msg.type === "state") {
      this.onState(entry, msg);
    }
  }

  /** A state of `entry`'s view: the awaited view arriving, or the next of the one shown. */
  onState(entry, msg) {
    const seat = entry.seat;
    const asked = seat === this.awaiting && Array.isArray(msg.history);
    const playing = !!msg.view && msg.view.status === "playing";
    // A new game's views, from any socket and before the primary's has decided, wait for
    // the view the device asks for.
    if (this.secrets && playing && (this.over || this.veiled) && !asked) return;
    if (asked) {
      // The view asked for (after the tap, or without a shield): the page switches to it.
      if (playing) this.veiled = false;
      this.shown = seat;
      this.awaiting = null;
      if (seat !== WATCH) this.holder = seat;
      this.dispatchEvent(new CustomEvent("reveal", { detail: { seat } }));
      const welcome = entry.welcome || { type: "welcome", now: Date.now() };
      this.emit({ ...welcome, seat: seat === WATCH ? null : seat, room: this.room || welcome.room });
      this.emit(msg);
      this.dispatchEvent(new CustomEvent("status", { detail: entry.socket.status }));
    } else if (seat === this.shown && !this.quiet) {
      this.emit(msg);
    }
  }

  // ------------------------------------------------------------------ deciding

  /**
   * Whether `seat` is a local seat its person plays now: not while the computer stands in
   * for them (their turns ran out), whose turns then show as any computer's.
   */
  plays(seat) {
    if (!this.local.has(seat)) return false;
    const seats = this.room && Array.isArray(this.room.seats) ? this.room.seats : [];
    const record = seats.find((s) => s.seat === seat);
    return !(record && record.computer);
  }

  /** The local seat to show for `view`: the actor if local, else the next local seat. */
  targetSeat(view) {
    const seats = this.seats();
    if (!seats.length) return null;
    const actor = actorOf(view);
    if (actor === null) {
      // Nobody to move (the game is over): the seat shown, or the last person who played.
      for (const seat of [this.shown, this.holder]) if (this.local.has(seat)) return seat;
      return seats[0];
    }
    if (this.plays(actor)) return actor;
    const count = view && Array.isArray(view.players) ? view.players.length : seats.length;
    for (let k = 1; k <= count; k++) {
      const next = (actor + k) % count;
      if (this.plays(next)) return next;
    }
    return seats[0];
  }

  /** Whose view the page shows after the primary's latest state, and whether to pass. */
  decide(view) {
    if (!view) return;
    const target = this.targetSeat(view);
    if (target === null) return;
    const heading = this.awaiting ?? this.pending ?? this.shown;
    if (view.status !== "playing") {
      // A finished game shows everything to everyone: no shield is needed any more, and
      // a seat's page (not the watcher's) offers "Play again".
      this.over = true;
      if (this.pending !== null) this.reveal();
      else if (heading === null || heading === WATCH) this.showNow(target);
      return;
    }
    if (this.over) {
      // "Play again": the next game is dealt in front of the whole table.
      this.over = false;
      if (this.secrets) {
        this.veiled = true;
        clearTimeout(this.passTimer);
        this.passTimer = null;
      }
    }
    const veiled = this.veiled;
    const actor = actorOf(view);
    if (actor === null || !this.plays(actor)) {
      // A computer's (or a remote player's) turn: with secrets, in a spectator's view;
      // without, in the view already shown.
      if (this.secrets && (heading !== WATCH || veiled)) this.showNow(WATCH);
      else if (heading === null) this.showNow(target);
      return;
    }
    if (actor === heading && !veiled) return;
    // The device changes hands only for another person: after a computer's turn (Master:
    // a computer's duel in the middle of a person's turn) the same person plays on.
    const sameHands = heading === WATCH && actor === this.holder && !veiled;
    if (!this.secrets || sameHands) this.showNow(actor);
    else if (!veiled && this.lookMs > 0 && heading !== null && heading !== WATCH && heading === this.shown) this.passAfterLook(actor);
    else this.pass(actor, view);
  }

  /**
   * The person who just played still holds the device: they see their move land (the
   * pawn's walk, the treasure found, the card taken) before the screen goes dark and asks
   * for the device to be passed; their own view is all that shows meanwhile. The turn is
   * looked at again when the time is up: whatever came in between (a game over, a seat
   * the computer took) decides then.
   */
  passAfterLook(actor) {
    if (this.passTimer) return;
    this.passTimer = setTimeout(() => {
      this.passTimer = null;
      const view = this.view;
      const heading = this.awaiting ?? this.pending ?? this.shown;
      if (view && view.status === "playing" && actorOf(view) === actor && heading === this.shown && this.plays(actor)) {
        this.pass(actor, view);
      } else {
        this.decide(view);
      }
    }, this.lookMs);
  }

  /** Hide everything and ask for the device to go to `seat`'s player. */
  pass(seat, view) {
    this.awaiting = null;
    this.pending = seat;
    const player = view && Array.isArray(view.players) ? view.players.find((p) => p.seat === seat) : null;
    const entry = this.local.get(seat);
    const name = (player && player.name) || (entry && entry.name) || `#${seat}`;
    // The turn that just ended ran out of time: its player is told why the shield names
    // someone else now (it changed from "Bob" to "Ann" with no word).
    const last = this.lastMove;
    const ranOut = last && last.by === "computer:timeout" && last.seat !== seat ? this.nameOf(last.seat, view) : null;
    const clock = this.clock && this.clock.seat === seat ? this.clock : null;
    this.dispatchEvent(new CustomEvent("pass", { detail: { seat, name, color: player ? player.color : null, clock, ranOut } }));
  }

  /** A seat's name in `view` (a local seat's as typed, failing that). */
  nameOf(seat, view) {
    const player = view && Array.isArray(view.players) ? view.players.find((p) => p.seat === seat) : null;
    const entry = this.local.get(seat);
    return (player && player.name) || (entry && entry.name) || `#${seat}`;
  }

  /** Switch to `seat` (or `WATCH`) without a shield: nothing there is another's secret. */
  showNow(seat) {
    this.pending = null;
    this.awaiting = seat;
    this.askView(seat);
  }

  /** Ask for a view's whole state; a socket still connecting gets it with its hello. */
  askView(seat) {
    const entry = seat === WATCH ? this.watch() : this.local.get(seat);
    if (entry) entry.socket.send({ type: "sync" });
  }

  /**
   * Seats closed a gap (a seat freed, say): the token's seat has a new number. Rare ("Play
   * again" is accepted for every local seat at once), and which view is shown or awaited
   * is kept by number: the page starts over from fresh welcomes, behind a shield.
   */
  renumber(entry, seat) {
    entry.seat = seat;
    this.save();
    clearTimeout(this.reloadTimer);
    this.reloadTimer = setTimeout(() => location.reload(), 200);
  }

  save() {
    saveLocalSeats(this.code, this.seats().map((seat) => {
      const { token, name } = this.local.get(seat);
      return { seat, token, name };
    }));
  }

  /**
   * A seat this browser no longer holds (left, moved to another device, token refused).
   * The others play on here: the page hears of it as news (`dropped`, detail `{seat,
   * name, why}`), not as its own seat moving. When none is left, the page is told its
   * seat moved and goes on as a spectator's, through the watcher.
   */
  drop(seat, movedMsg = null) {
    const entry = this.local.get(seat);
    if (!entry) return;
    entry.socket.close();
    this.local.remove(entry);
    this.save();
    if (this.pending === seat) this.pending = null;
    if (this.awaiting === seat) this.awaiting = null;
    if (!this.local.entries.length) {
      this.shown = null;
      if (movedMsg) this.emit(movedMsg);
      this.showNow(WATCH);
      return;
    }
    if (this.shown === seat) this.shown = null;
    const why = movedMsg ? movedMsg.why || "device" : "freed";
    this.dispatchEvent(new CustomEvent("dropped", { detail: { seat, name: entry.name, why } }));
    this.decide(this.view);
  }

  /** The people this page plays for, by seat: `[{seat, name}]`. */
  people() {
    return this.seats().map((seat) => ({ seat, name: this.local.get(seat).name }));
  }

  /** Send as one local seat, whichever is shown (`back` for a seat the computer holds). */
  sendAs(seat, msg) {
    const entry = this.local.get(seat);
    return entry ? entry.socket.send(msg) : false;
  }
}
