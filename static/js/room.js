/**
 * The room page: connection, seats and start (lobby phase), the move log, chat, errors,
 * and the variant's game UI (classic.js) once a game runs. A room this browser plays
 * several seats of (pass-and-play, local-seats.js) is the same page, fed the view of the
 * seat to move, with a shield (pass-shield.js) between two players' views.
 */

import { Announcer } from "./announce.js";
import { api, ApiError, loadToken, RoomSocket, saveToken } from "./api.js";
import { CardsUI } from "./cards.js";
import { ClassicUI } from "./classic.js";
import { MasterUI } from "./master.js";
import { TeamUI } from "./team.js";
import { NAME_MAX, byId, colorDot, flash, h, limitName, unflash } from "./dom.js";
import { ClockView, clockWords, setServerNow } from "./clock.js";
import { apiErrorWords, errorWords } from "./error-words.js";
import { FocusKeeper, usingKeyboard } from "./keyboard-focus.js";
import { askNotifications, canAskNotifications, isMuted, setMuted, TurnNotifier } from "./notify.js";
import { connMark, lostWords, presenceChanges } from "./presence.js";
import { formatList, initI18n, lang, onLanguageChange, t } from "./i18n.js";
import { hasSecrets, loadLocalSeats, LocalSeatsSocket } from "./local-seats.js";
import { lettersOn, setLetters } from "./letter-keys.js";
import { PassShield } from "./pass-shield.js";
import { byBadge, entryWords, notationPlaces } from "./movelog.js";
import { loadSeen, saveSeen, sinceSummary, turnSummary } from "./since.js";
import { optionWords } from "./options.js";
import { ensureSprite } from "./tiles.js";
import { initTable, joinToken, leftOwnSeat, mayStart, renderTable, seatBadges, seatControls, startToken } from "./room-table.js";
import { saveHostToken, seatName as seatLabel, shownName, tableApi } from "./table.js";
import { COLORS, variantById } from "./variants.js";

/** Game UIs by variant id. */
const GAME_UIS = { classic: ClassicUI, cards: CardsUI, master: MasterUI, team: TeamUI };

const page = byId("room-page");
const code = page.dataset.code;
const variantId = page.dataset.variant;
const variant = variantById(variantId) || { id: variantId, label: "variant.unknown", minPlayers: 2, maxPlayers: 4, options: [] };
/** Seats this browser plays; two or more: pass-and-play (one alone is an ordinary seat). */
const localSeats = loadLocalSeats(code);
const passAndPlay = localSeats.length >= 2;

const els = {
  title: byId("room-title"),
  variantName: byId("variant-name"),
  conn: byId("conn-status"),
  spectators: byId("spectator-count"),
  keysHelp: byId("controls").querySelector(".keys-help"),
  youWatch: byId("you-watch"),
  lobbyHelp: byId("lobby-help"),
  seats: byId("seat-list"),
  joinForm: byId("join-form"),
  joinName: limitName(/** @type {HTMLInputElement} */ (byId("join-name"))),
  joinButton: byId("join-button"),
  start: byId("start-button"),
  lobbyError: byId("lobby-error"),
  share: byId("share-link"),
  shareCard: byId("share-card"),
  copy: byId("copy-link"),
  waiting: byId("game-waiting"),
  unsupported: byId("game-unsupported"),
  toast: byId("toast"),
  news: byId("news"),
  log: byId("move-log"),
  logEmpty: byId("move-log-empty"),
  chatLog: byId("chat-log"),
  chatEmpty: byId("chat-empty"),
  chatForm: byId("chat-form"),
  chatInput: byId("chat-input"),
  clock: byId("clock"),
  roomClock: byId("room-clock"),
  away: byId("away-banner"),
  backBanner: byId("back-banner"),
  sinceBanner: byId("since-banner"),
  computerSeats: byId("computer-seats"),
  seatNotice: byId("seat-notice"),
  seatTools: byId("seat-tools"),
  seatToolsTitle: byId("seat-tools-title"),
  sound: byId("sound-toggle"),
  letterKeys: byId("letter-keys"),
  notifyToggle: byId("notify-toggle"),
  deviceButton: byId("device-button"),
  devicePanel: byId("device-panel"),
  deviceLink: byId("device-link"),
  deviceCopy: byId("device-copy"),
  deviceQr: byId("device-qr"),
  back: byId("back-button"),
  leave: byId("leave-button"),
  offline: byId("offline-banner"),
  sending: byId("sending"),
};

const app = {
  token: passAndPlay ? null : loadToken(code),
  /** The game's keeper of a keyboard player's focus (made with the game's page). */
  focusKeeper: /** @type {FocusKeeper|null} */ (null),
  /** the game just ended under a keyboard player's focus: it goes to what comes next */
  endFocus: false,
  /** @type {number|null} */
  seat: null,
  /** @type {object|null} the room as last sent */
  room: null,
  /** @type {number|null} */
  seq: null,
  /** @type {{seq: number, seat: number|null, notation: string}[]} */
  log: [],
  /** names by seat, from the game view (or the room) */
  names: new Map(),
  colors: new Map(),
  refs: 0,
  legalRef: null,
  game: null,
  hasState: false,
  /** the last state's view, for whose turn it is */
  view: null,
  /** away seats the player chose to wait for, each until when (or until it changes) */
  waiting: new Map(),
  /** the moves after `seen` went unshown to the page's `seats`: said until dismissed;
   * `turn`: a shared device's next person, told what the others did since their turn
   * @type {{seen: number, seats: number[], turn?: boolean}|null} */
  since: null,
  /** pass-and-play: game id -> (seat -> the last seq that seat's person was shown) */
  seenBy: new Map(),
  /** the seat this page held before it moved to another device or left */
  formerSeat: null,
  /** a device link was claimed: the first state says so again (it clears older news) */
  claimNews: false,
  /** "The new game started without Cleo", said with the next game's first state. */
  rematchNews: null,
  reopened: null,  // who did not stay when "play again" found too few (noteReopened)
  /** The seats of the game that ended, `{game, seats}` (see setRoom). */
  finishedSeats: null,
};

const clockView = new ClockView(els.clock, (seat) => seatName(seat));
const notifier = new TurnNotifier();

const socket = passAndPlay
  ? new LocalSeatsSocket(code, localSeats, { secrets: hasSecrets(variantId) })
  : new RoomSocket(code, () => app.token);

// ---------------------------------------------------------------- errors and news

let toastTimer = null;
/** Show a refusal briefly near the board (or under the seat form in the lobby). */
function showError(text) {
  if (page.dataset.phase !== "lobby") {
    els.toast.textContent = text;
    els.toast.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(() => {
      els.toast.hidden = true;
    }, 4000);
  } else {
    els.lobbyError.textContent = text;
  }
}

/**
 * A news line, shown for a while and said once by the announcer (the line is no live
 * region: what it says of a move is in the move's own words when that is said).
 */
function showNews(text, fromMove = false) {
  flash(els.news, text, 6000);
  announcer.news(text, fromMove);
}


// ---------------------------------------------------------------- the game UI

// Where a keyboard player's focus goes when a re-render removed the control they used:
// the next step's controls, the likeliest first (see keyboard-focus.js).
const NEXT_CONTROLS = [
  "[data-testid=decisions] button",
  "[data-testid^=orient-]",
  "[data-testid=team-spells] [data-testid^=rotate-]",
  "#board [data-key^='cell-'][tabindex]",
  "#board [data-key^='pawn-'][tabindex]",
  "#board [data-key^='arrow-'][tabindex]",
  "#board .place-cell.legal",
  "[data-testid=take-button]",
  "[data-testid^=discard-]",
  "[data-testid=turn-first-card]",
  "[data-testid=end-turn]",
];

function createGameUI() {
  const ui = newGameUI();
  if (!ui) return null;
  // Every redraw, whatever asked for it, keeps a keyboard player's place.
  const keeper = new FocusKeeper(byId("room-page"), byId("board"), NEXT_CONTROLS);
  keeper.adopt();
  app.focusKeeper = keeper;
  const render = ui.render.bind(ui);
  ui.render = (...args) => {
    keeper.save();
    render(...args);
    keeper.restore();
  };
  return ui;
}

function newGameUI() {
  const Ui = GAME_UIS[variant.id];
  if (!Ui) return null;
  return new Ui(
    {
      board: byId("board"),
      spare: byId("spare"),
      rotateCw: byId("rotate-cw"),
      rotateCcw: byId("rotate-ccw"),
      stay: byId("stay-button"),
      controls: byId("controls"),
      turn: byId("turn-status"),
      seq: byId("seq"),
      target: byId("target-box"),
      event: byId("event-panel"),
      players: byId("player-list"),
      result: byId("result-banner"),
      hand: byId("hand-panel"),
    },
    {
      sendAction(action) {
        const id = "a" + ++app.refs;
        return socket.send({ type: "action", id, seq: app.seq, action });
      },
      requestLegal() {
        app.legalRef = "l" + ++app.refs;
        socket.send({ type: "legal", id: app.legalRef });
      },
      showError,
      showNews,
      /** Several people share this device (pass-and-play): a view with no seat is theirs
       * between turns (a computer playing), not a stranger's. */
      sharedDevice: passAndPlay,
      /** Take a news line down when it no longer applies (and nothing newer replaced it). */
      dropNews(text) {
        if (els.news.textContent === text) unflash(els.news);
      },
      notSent() {
        showError(lostWords(true));
      },
      sending(on) {
        els.sending.hidden = !on;
      },
      say(text) {
        announcer.say(text);
      },
      /** A seat this page plays (pass-and-play: any of the device's seats, whose view may
       * already be the next person's when a move comes back). */
      ownsSeat(seat) {
        return ownSeats().includes(seat);
      },
      /** The computer plays this page's seat while its person is away: the page watches
       * (its turn line said "Your turn" and lit squares under the computer's moves) until
       * "I'm back" gives the seat back. */
      standsIn(seat) {
        const s = app.room && app.room.seats.find((x) => x.seat === seat);
        return !!(s && s.kind === "human" && s.computer && s.computer.reason === "away" && ownSeats().includes(seat));
      },
      isConnected(seat) {
        const s = app.room && app.room.seats.find((x) => x.seat === seat);
        // No mark (null) once the game is over: nobody is "reconnecting". A seat the
        // computer plays for its player (away, or gone for good) says so in its row.
        if (!s || (app.view && app.view.status === "finished")) return null;
        if (s.kind === "human" && s.computer) return s.computer.reason === "left" ? "computer-left" : "computer-away";
        return s.connected ? true : s.away ? "away" : false;
      },
    },
  );
}

// ---------------------------------------------------------------- messages

function onMessage(msg) {
  switch (msg.type) {
    case "welcome":
      setServerNow(msg.now);
      onWelcome(msg);
      break;
    case "seat_moved":
      onSeatMoved(msg);
      break;
    case "room":
      setRoom(msg.room);
      break;
    case "state":
      onState(msg);
      break;
    case "legal":
      if (app.game && msg.ref === app.legalRef) app.game.setLegal(msg);
      break;
    case "chat":
      addChat(msg);
      break;
    case "error":
      onError(msg);
      break;
    default:
      break;
  }
}

/** A welcome answers hello, or says this tab's seat changed number or was freed. */
function onWelcome(msg) {
  const seat = msg.seat ?? null;
  if (passAndPlay) app.token = socket.token;
  if (app.token && app.seat !== null && seat !== app.seat && app.room) {
    if (seat === null) {
      app.token = null;
      saveToken(code, null);
      // Said where it stays: the next game's first state clears the news band at once.
      // From a finished game, the seat was freed by "play again" going on without it.
      // From the lobby, the host freed it, unless this page left it.
      const rematch = app.room.status === "finished";
      const own = leftOwnSeat();
      const words = rematch ? (own ? "room.rematch_declined" : "room.rematch_freed") : own ? "room.seat_left" : "room.seat_freed";
      els.seatNotice.textContent = t(words);
      els.seatNotice.dataset.kind = "freed";
      els.seatNotice.dataset.words = words;  // "a free seat" is said while there is one
      els.seatNotice.hidden = false;
    }
  }
  if (seat !== null && els.seatNotice.dataset.kind === "freed") {
    els.seatNotice.hidden = true;  // seated again
    delete els.seatNotice.dataset.kind;
  }
  app.seat = seat;
  setRoom(msg.room);
  // The room's last lines as this viewer may read them: the conversation so far, after a
  // reload, a reconnection or a move to another device (lines said later come one by one).
  if (Array.isArray(msg.chat)) {
    els.chatLog.replaceChildren();
    for (const line of msg.chat) addChat(line);
    els.chatEmpty.hidden = msg.chat.length > 0;
    els.chatLog.scrollTop = els.chatLog.scrollHeight;
  }
}

function onError(msg) {
  if (msg.code === "unauthorized") {
    // The stored seat key is not (or no longer) valid: carry on as a spectator, told why
    // where it stays (a phone reopened after its seat moved to another device had only
    // a toast's four seconds, then "You are watching").
    const hadSeat = app.token !== null;
    app.token = null;
    app.seat = null;
    saveToken(code, null);
    if (hadSeat) {
      delete els.seatNotice.dataset.kind;
      els.seatNotice.textContent = t("device.key_gone");
      els.seatNotice.hidden = false;
      renderLobby();
      renderDuringGame();
      return;
    }
  }
  if (msg.ref && msg.ref === app.legalRef) {
    // The legal list was refused (rate limit, say): ask again shortly.
    setTimeout(() => app.game && app.game.retryLegal(), 1000);
    return;
  }
  if (app.game && msg.ref) app.game.refused();
  if (pendingChat && msg.ref === pendingChat.id) {
    // A refused line comes back to the box, unless something else was typed meanwhile.
    if (!els.chatInput.value) els.chatInput.value = pendingChat.text;
    pendingChat = null;
  }
  showError(errorWords(msg.code, msg.message, msg.reason));
}

function onState(msg) {
  const previous = app.seq;
  let consecutive = false;
  if (Array.isArray(msg.history)) {
    app.log = msg.history.slice();
  } else if (previous !== null && msg.seq === previous + 1) {
    consecutive = true;
    if (msg.last) app.log.push({ seq: msg.last.seq, seat: msg.last.seat, notation: msg.last.notation, events: msg.last.events, by: msg.last.by });
  } else if (previous === null ? msg.seq > 0 : msg.seq > previous + 1) {
    // Some states went by unseen: ask for the whole history.
    socket.send({ type: "sync" });
  }
  // A state that does not follow the one shown (a resync, a reload): older news is stale.
  if (!consecutive) unflash(els.news);
  if (app.claimNews) {
    app.claimNews = false;
    showNews(t("device.claimed"));
  }
  if (app.rematchNews) {
    showNews(app.rematchNews);
    app.rematchNews = null;
  }
  noteSince(msg, consecutive);
  app.seq = msg.seq;
  app.hasState = true;
  const view = msg.view;
  if (view && Array.isArray(view.players)) {
    for (const p of view.players) {
      app.names.set(p.seat, p.name);
      app.colors.set(p.seat, p.color);
    }
  }
  const ended = consecutive && app.view && app.view.status === "playing" && view && view.status === "finished";
  app.view = view;
  if (!consecutive) renderOptions();  // the seats dealt decide which options still speak
  clockView.update(view && view.status === "playing" ? msg.clock : null);
  if (!app.game) app.game = createGameUI();
  showPhase();
  if (app.game) app.game.setState(msg, consecutive);
  showPhase();
  renderLog();
  updateTitle(view);
  renderDuringGame();
  if (consecutive && msg.last) tellTimeout(msg.last);  // over the game's own news
  if (consecutive && msg.last) sayMove(msg.last);
  if (ended) showTheEnd();
}

/** The game just ended: its result (and the replay, "play again") is brought into sight
 * once, if the page was scrolled away from it (a phone's reader of the chat, far below). */
function showTheEnd() {
  // A keyboard player's focus stayed on the board, which has nothing left to do: it goes
  // to what comes next ("Play again", else the replay), now or once that panel is drawn.
  const active = document.activeElement;
  app.endFocus = usingKeyboard() && (!active || active === document.body || byId("board").contains(active));
  focusTheEnd();
  const banner = byId("result-banner");
  if (!banner || banner.hidden) return;
  const box = banner.getBoundingClientRect();
  if (box.top >= 0 && box.bottom <= window.innerHeight) return;
  const still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  banner.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
}

/** The end's focus, once "Play again" (or the replay's link) is there to take it. */
function focusTheEnd() {
  if (!app.endFocus) return;
  const next = document.querySelector("#after-game:not([hidden]) [data-testid=play-again]")
    || document.querySelector("#after-game:not([hidden]) [data-testid=watch-replay]");
  if (!next) return;
  app.endFocus = false;
  /** @type {HTMLElement} */ (next).focus({ preventScroll: true });
}

// What a screen reader hears: the other players' moves (and the turn line they led to).
const announcer = new Announcer(byId("announce"), byId("turn-status"), byId("event-panel"));

/** Another player's move (or one the computer made for this page's seat), in words. */
function sayMove(last) {
  const seat = last.seat;
  if (seat === null || seat === undefined || (ownSeats().includes(seat) && !last.by)) return;
  const words = entryWords(last.notation, { variant: variant.id, names: seatName, events: last.events, seat });
  announcer.move(`${seatName(seat)} ${words}`);
}

/** The seat to act in a running game's view (master's duellist may act on another's turn). */
function actorOf(view) {
  if (!view || view.status !== "playing" || !view.turn) return null;
  return view.turn.actor ?? view.turn.seat;
}

function updateTitle(view) {
  const mine = app.seat !== null && view && actorOf(view) === app.seat;
  const base = t("room.title", { code }) + " — " + t("app.title");
  document.title = mine ? "● " + t("notify.title_mine") + " — " + base : base;
  // A seat waiting for the start is "not my turn" (a start that gives it the first turn is
  // told); a page opened on a running game decides nothing before its first state.
  const waiting = !view && app.seat !== null && app.room && app.room.status === "lobby";
  notifier.update(view ? !!mine : waiting ? false : null, base);
}

// ---------------------------------------------------------------- during the game: seats, clock, away

/** How long "Wait" for an away player holds before the choice is offered again. */
const WAIT_MS = 45_000;

/** Away players, computer-played seats, the player's own seat tools. */
function renderDuringGame() {
  const room = app.room;
  const view = app.view;
  els.roomClock.hidden = !(room && room.clock);
  els.roomClock.textContent = room ? clockWords(room.clock) : "";
  const playing = !!(view && view.status === "playing");
  const seats = room ? room.seats : [];
  // Seats the computer plays, labelled.
  const controlOf = (s) => (s.kind === "human" && s.computer ? s.computer.reason : null);
  // This page's own seats the computer plays while their person is away have the banner
  // with the way back (below): their player is not told of them a second time, in the
  // third person ("The computer plays for Bob", to Bob).
  const standIns = playing ? seats.filter((s) => ownSeats().includes(s.seat) && controlOf(s) === "away") : [];
  const computer = seats.filter((s) => (controlOf(s) === "away" || controlOf(s) === "left") && !standIns.includes(s));
  els.computerSeats.hidden = !(computer.length && (playing || (view && view.status === "finished")));
  // Once the game is over, said in the past: the computer played for them.
  const labels = playing
    ? { left: "away.left_label", away: "away.computer_label" }
    : { left: "away.left_played", away: "away.computer_played" };
  els.computerSeats.replaceChildren(...computer.map((s) => h("span", {
    class: "computer-seat", "data-testid": `computer-seat-${s.seat}`, "data-control": controlOf(s),
  }, t(labels[controlOf(s)], { name: shownName(s.name) }))));
  // An away player on their turn: the others choose to wait or let the computer play.
  const mover = actorOf(view);
  const awaySeat = playing && app.seat !== null && mover !== app.seat
    ? seats.find((s) => s.seat === mover && s.away && !s.connected && !s.computer && !((app.waiting.get(s.seat) || 0) > Date.now()))
    : null;
  els.away.hidden = !awaySeat;
  if (awaySeat) {
    els.away.replaceChildren(
      h("span", { class: "away-text" }, t("away.is_away", { name: shownName(awaySeat.name) })),
      h("button", { type: "button", "data-testid": "away-wait", on: { click: () => {
        // For a while: a player who never comes back is offered again.
        app.waiting.set(awaySeat.seat, Date.now() + WAIT_MS);
        setTimeout(renderDuringGame, WAIT_MS + 100);
        renderDuringGame();
      } } }, t("away.wait")),
      h("button", { type: "button", class: "primary", "data-testid": "away-takeover", on: { click: () => {
        socket.send({ type: "takeover", id: "t" + ++app.refs, seat: awaySeat.seat });
      } } }, t("away.takeover")));
  }
  for (const s of seats) if (s.connected || s.computer) app.waiting.delete(s.seat);
  renderStandIns(standIns);
  // The player's own seat.
  const mine = seats.find((s) => s.seat === app.seat);
  // Before the start the seat may move to another device too (a friend who joined on a
  // laptop and goes on on a phone): that button alone, the others are the game's.
  const lobby = !!(room && room.status === "lobby");
  els.seatTools.hidden = !(app.seat !== null && (playing || (lobby && !passAndPlay)));
  for (const el of [els.sound, els.letterKeys, els.leave]) el.hidden = !playing;
  // On a shared device the tools act for the seat shown: say whose.
  els.seatToolsTitle.textContent = passAndPlay && mine
    ? t("seat.tools_named", { name: shownName(mine.name) })
    : t("seat.tools");
  els.back.hidden = !(mine && controlOf(mine) === "away");
  els.sound.textContent = t(isMuted() ? "notify.sound_off" : "notify.sound_on");
  els.sound.setAttribute("aria-pressed", String(!isMuted()));
  els.letterKeys.textContent = t(lettersOn() ? "keys.letters_on" : "keys.letters_off");
  els.letterKeys.setAttribute("aria-pressed", String(lettersOn()));
  els.notifyToggle.hidden = !playing || !canAskNotifications();
}

/**
 * A turn the clock ran out on, said over each action the server plays of it (the game's
 * own news of the move would cover it otherwise): the small label in the log alone went
 * unnoticed, by the player above all.
 */
function tellTimeout(last) {
  if (last.by !== "computer:timeout") return;
  const mine = !passAndPlay && last.seat === app.seat;
  showNews(mine ? t("away.timeout_you") : t("away.timeout_other", { name: seatName(last.seat) }));
}

/** The seats this page plays: the local seats of a shared device, else its one seat. */
function ownSeats() {
  if (passAndPlay) return socket.seats();
  return app.seat === null ? [] : [app.seat];
}

/**
 * This page's own seats the computer plays while their person is away (their turns ran
 * out), said at the top with the way back: a move on their turn also brings them back.
 */
function renderStandIns(standIns) {
  els.backBanner.hidden = !standIns.length;
  // Built again only when it changes: a button replaced under a finger loses the tap.
  const drawn = JSON.stringify([lang(), standIns.map((s) => [s.seat, s.name])]);
  if (els.backBanner.dataset.drawn === drawn) return;
  els.backBanner.dataset.drawn = drawn;
  els.backBanner.replaceChildren(...standIns.map((s) => {
    const name = shownName(s.name);
    const back = () => {
      const msg = { type: "back", id: "b" + ++app.refs };
      if (passAndPlay) socket.sendAs(s.seat, msg);
      else socket.send(msg);
    };
    return h("div", { class: "back-line", "data-testid": `stand-in-${s.seat}` },
      h("span", { class: "away-text" }, passAndPlay ? t("away.you_named", { name }) : t("away.you")),
      h("button", { type: "button", class: "primary", "data-testid": `stand-in-back-${s.seat}`, on: { click: back } },
        passAndPlay ? t("away.back_named", { name }) : t("away.back")));
  }));
}

function onSeatMoved(msg) {
  // The host's seat moved to another device with the host's key, which stopped working
  // here: the host's controls go with it.
  if (msg.why === "device" && app.room && app.room.host && app.room.host.seat === msg.seat) {
    saveHostToken(code, null);
    initTable(code);
  }
  app.formerSeat = app.seat;
  app.seat = null;
  app.token = null;
  saveToken(code, null);
  delete els.seatNotice.dataset.kind;
  els.seatNotice.textContent = t(msg.why === "left" ? "leave.done" : "device.moved");
  els.seatNotice.hidden = false;
  els.devicePanel.hidden = true;
  renderLobby();
  renderDuringGame();
}

/** A device link is being asked for (the button stays focusable meanwhile: a disabled
 * button lost a keyboard player's focus to the top of the page). */
let deviceAsking = false;

async function openDeviceLink() {
  if (!app.token || deviceAsking) return;
  deviceAsking = true;
  els.deviceButton.setAttribute("aria-disabled", "true");
  const pressed = document.activeElement === els.deviceButton;
  try {
    const res = await api.deviceLink(code, app.token);
    els.deviceLink.value = res.url;
    deviceTtl = res.expires_in;
    renderDeviceHelp();
    // The QR code is made by the server (an SVG of one path): parsed, never run.
    const svg = new DOMParser().parseFromString(res.qr_svg, "image/svg+xml").documentElement;
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", t("device.qr"));
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    els.deviceQr.replaceChildren(document.importNode(svg, true));
    els.devicePanel.hidden = false;
    els.deviceButton.setAttribute("aria-expanded", "true");
    // The link is the next thing to take (copy it, or read it out): its label says what it is.
    if (pressed) els.deviceLink.focus();
  } catch (err) {
    showError(apiErrorWords(err));
  } finally {
    deviceAsking = false;
    els.deviceButton.removeAttribute("aria-disabled");
  }
}

/** How long the last device link works (the server's `DEVICE_LINK_TTL`), in seconds. */
let deviceTtl = 600;

/** The device link's help, with its life as the server gave it (it said "10 minutes"
 * whatever the server's setting). */
function renderDeviceHelp() {
  const time = deviceTtl % 60 === 0 ? t("device.minutes", { n: deviceTtl / 60 }) : t("device.seconds", { n: deviceTtl });
  byId("device-help").textContent = t("device.help", { time });
}

/** A device link opened here: spend its key (in the fragment, never sent in a URL). */
async function claimFromLink() {
  const match = /(?:^#|&)transfer=([^&]+)/.exec(location.hash);
  if (!match) return;
  history.replaceState(null, "", location.pathname + location.search);
  try {
    const res = await api.claim(code, decodeURIComponent(match[1]));
    app.token = res.token;
    app.seat = res.seat;
    saveToken(code, res.token);
    // The host's seat brings the host's key: the options, the seats and "play again"
    // are this device's now (the older device's key stopped working).
    if (res.host_token) {
      saveHostToken(code, res.host_token);
      initTable(code);
    }
    showNews(t("device.claimed"));
    // Said again with the first state, which clears the news of before it.
    app.claimNews = true;
  } catch (err) {
    showError(apiErrorWords(err));
    // The page goes on as a spectator's: said where it stays, with the way to a new link
    // (the toast's few seconds, and the key gone from the address, left only a watcher).
    if (err instanceof ApiError && err.code === "bad_transfer") {
      delete els.seatNotice.dataset.kind;
      els.seatNotice.textContent = t("device.claim_failed");
      els.seatNotice.hidden = false;
    }
  }
}

function setupSeatTools() {
  els.sound.addEventListener("click", () => {
    setMuted(!isMuted());
    renderDuringGame();
  });
  els.letterKeys.addEventListener("click", () => {
    setLetters(!lettersOn());
    // the keys' help says which keys act (the card game's, under the hand, too)
    renderAll();
  });
  els.notifyToggle.addEventListener("click", async () => {
    // Said either way: a prompt closed without a choice left the button as it was.
    const answer = await askNotifications();
    showNews(t(answer === "granted" ? "notify.granted" : answer === "denied" ? "notify.denied" : "notify.dismissed"));
    renderDuringGame();
  });
  els.deviceButton.addEventListener("click", openDeviceLink);
  els.deviceCopy.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(els.deviceLink.value);
      els.deviceCopy.textContent = t("room.copied");
    } catch {
      els.deviceLink.select();
    }
  });
  els.back.addEventListener("click", () => socket.send({ type: "back", id: "b" + ++app.refs }));
  els.leave.addEventListener("click", () => {
    if (window.confirm(t("leave.confirm"))) socket.send({ type: "leave", id: "x" + ++app.refs });
  });
}

// ---------------------------------------------------------------- room and lobby

function setRoom(room) {
  if (!room) return;
  // (A seat this page held until it moved elsewhere is no news here either.) Only a game
  // in play waits for a player to come back: before the start, a friend whose page opens
  // after their seat was taken is not "back", and the seat list shows who is here.
  const own = passAndPlay ? socket.seats() : [app.seat, app.formerSeat];
  const playing = room.status === "playing" && app.room && app.room.status === "playing";
  for (const change of playing ? presenceChanges(app.room.seats, room.seats, own) : []) tellPresence(change);
  // A player who leaves for good is news to the others, as a lost connection is (only the
  // seat's label changed).
  for (const s of playing ? room.seats : []) {
    const was = app.room.seats.find((x) => x.seat === s.seat);
    const left = (x) => !!(x && x.kind === "human" && x.computer && x.computer.reason === "left");
    if (left(s) && was && !left(was) && !own.includes(s.seat)) showNews(t("away.left_news", { name: shownName(s.name) }));
  }
  // Who played the game that just ended, kept through "play again": a seat freed under
  // the offer ("No thanks") leaves the room's list before the next game starts.
  if (room.status === "finished" && (!app.finishedSeats || app.finishedSeats.game !== room.game_id)) {
    app.finishedSeats = { game: room.game_id, seats: room.seats };
  }
  noteRematchWithout(app.room, room);
  noteReopened(app.room, room);
  takeUpFocusForNextGame(app.room, room);
  app.room = room;
  // The room opened again (too few stayed for the next game): the game shown is over and
  // gone, and the page is the lobby's until the next one starts.
  if (room.status === "lobby" && app.hasState) forgetGame();
  for (const s of room.seats) {
    if (!app.names.has(s.seat) || room.status === "lobby") app.names.set(s.seat, s.name);
    // the game's own colours once dealt (its view); before, the ones it will deal
    if (!app.colors.has(s.seat) || room.status === "lobby") app.colors.set(s.seat, roomColor(room, s.seat));
  }
  showPhase();
  renderLobby();
  renderSpectators();
  renderOptions();
  if (app.game && app.hasState) {
    app.game.render({});
    app.game.retryLegal();  // a seat given back mid-turn ("I'm back") plays on at once
  }
  renderDuringGame();
  updateTitle(app.game ? app.game.view : null);
}

/** How long a player's connection stays down before the others are told they left: a
 * reload, or a seat moved to another device, is back within it, and read as "Bob left —
 * waiting for them to reconnect", then "Bob is back". (The seat's row shows it at once.) */
const LEFT_AFTER_MS = 3000;
const leaving = new Map();  // seat -> the timer that will say they left

function tellPresence(change) {
  const pending = leaving.get(change.seat);
  if (pending !== undefined) {
    clearTimeout(pending);
    leaving.delete(change.seat);
    if (change.connected) return;  // back before anyone was told they had gone
  }
  if (change.connected) {
    showNews(change.text);
    return;
  }
  leaving.set(change.seat, setTimeout(() => {
    leaving.delete(change.seat);
    const s = app.room && app.room.seats.find((x) => x.seat === change.seat);
    if (s && !s.connected && app.room.status === "playing") showNews(change.text);
  }, LEFT_AFTER_MS));
}

/**
 * "Play again" went on without some of the table: the others are told who, once the new
 * game's first state has cleared the news band (those left out read their own notice).
 */
function noteRematchWithout(before, after) {
  if (!before || before.status !== "finished" || after.status !== "playing" || after.game_id === before.game_id) return;
  // What this page was told of the last game goes with it: "While you were away…" and,
  // for a player who left it, "You left the game: the computer plays your seat".
  app.since = null;
  renderSince();
  if (app.seat === null && !els.seatNotice.dataset.kind) els.seatNotice.hidden = true;
  const kept = new Set(after.seats.map((s) => s.name));
  const played = app.finishedSeats && app.finishedSeats.game === before.game_id ? app.finishedSeats.seats : before.seats;
  const without = played.filter((s) => !kept.has(s.name));
  const mine = new Set(ownSeats());
  if (app.formerSeat !== null && app.formerSeat !== undefined) mine.add(app.formerSeat);
  if (!without.length || els.seatNotice.dataset.kind === "freed") return;
  // The one left out is told in their own words ("…without Cleo" said to Cleo herself).
  const others = without.filter((s) => !mine.has(s.seat));
  app.rematchNews = others.length < without.length
    ? t("room.rematch_without_you")
    : t("room.rematch_without", { names: formatList(others.map((s) => shownName(s.name))) });
}

/**
 * "Play again" found too few staying (the only other player had left the game, or said
 * no): the room opens again, and its lobby said only "At least 2 players are needed", as
 * if the table had never played. Who did not stay, and how to fill their seat, is said
 * there until the next game starts.
 */
function noteReopened(before, after) {
  if (after.status !== "lobby") {
    app.reopened = null;
    return;
  }
  if (!before || before.status !== "finished") return;
  const kept = new Set(after.seats.map((s) => s.name));
  const played = app.finishedSeats && app.finishedSeats.game === before.game_id ? app.finishedSeats.seats : before.seats;
  const gone = played.filter((s) => !kept.has(s.name)).map((s) => shownName(s.name));
  app.reopened = gone.length ? gone : null;
}

/**
 * "Play again" started the next game: a keyboard player's focus was in the last game's
 * panel (the status line their acceptance moved it to, or the button they pressed), which
 * goes away now; it is taken up by the new game's first control, as at a first start,
 * rather than dropped to the top of the page.
 */
function takeUpFocusForNextGame(before, after) {
  if (!before || before.status !== "finished" || after.status !== "playing" || after.game_id === before.game_id) return;
  if (!app.focusKeeper) return;
  const active = document.activeElement;
  if (active && active !== document.body && !byId("after-game").contains(active)) return;
  if (active && active !== document.body) /** @type {HTMLElement} */ (active).blur();
  app.focusKeeper.adopt();
}

function forgetGame() {
  app.hasState = false;
  app.view = null;
  app.seq = null;
  app.log = [];
  app.since = null;
  clockView.update(null);
  unflash(els.news);
  renderLog();
  renderSince();
}

/** The room's options in words, in its header: once, whatever the phase (the host's panel
 * is where they change). */
function renderOptions() {
  // Nothing until the room is known: the defaults are not this room's options. Once a
  // game is dealt, its seats' colours say which colour's options still speak.
  const dealt = app.room && app.room.status !== "lobby" && app.view && Array.isArray(app.view.players)
    ? new Set(app.view.players.map((p) => p.color))
    : null;
  // A Team seat's spell left to chance is dealt with the game: its second spell tile.
  const chance = {};
  for (const p of dealt && app.view ? app.view.players : []) {
    if (Array.isArray(p.spells) && p.spells.length > 1) chance[`spell_${p.color}`] = p.spells[1];
  }
  const words = app.room ? optionWords(variant, app.room.options, dealt, chance) : [];
  const list = byId("room-options");
  list.replaceChildren(...words.map((w) => h("li", { class: "chip", "data-option": w.key }, w.text)));
  list.hidden = words.length === 0;
}

/** Lobby or game: the page shows `.lobby-only` or `.game-only` parts accordingly. */
function showPhase() {
  const status = app.room ? app.room.status : null;
  const playing = app.hasState || (status !== null && status !== "lobby");
  els.waiting.hidden = app.hasState || !playing;
  els.unsupported.hidden = !(playing && app.hasState && !app.game);
  const finished = status === "finished" || !!(app.game && app.game.view && app.game.view.status === "finished");
  const before = page.dataset.phase;
  if (!app.room && !app.hasState) page.dataset.phase = "loading";
  else page.dataset.phase = playing ? (finished ? "finished" : "playing") : "lobby";
  // The game begins at the top of the page: a long waiting room (the Team Edition's
  // spells) was scrolled down to its Start button, and the board came up half out of
  // sight, its first step above the screen.
  if (before === "lobby" && page.dataset.phase === "playing") window.scrollTo({ top: 0 });
}

/** A viewer with no seat of the room: a stranger watching (not a shared device's players). */
function watchesOnly() {
  return !passAndPlay && !!app.room && app.seat === null;
}

function renderSpectators() {
  const n = app.room && typeof app.room.spectators === "number" ? app.room.spectators : null;
  // None watching goes unsaid: it took the header's room on a laptop, and read "0
  // watching" beside "You are watching" while a page's own presence was on its way.
  els.spectators.hidden = n === null || n === 0;
  els.spectators.textContent = n === null ? "" : t("room.spectators", { n });
  els.spectators.dataset.count = n === null ? "" : String(n);
  // Someone who came by the link of a game under way sees the players' questions ("Play
  // the matching card for a coin?") in the turn's line: the header says whose they are.
  els.youWatch.hidden = !watchesOnly() || app.room.status === "lobby";
  // The keys move a player's spare tile: a watcher has none to move.
  els.keysHelp.hidden = watchesOnly();
  // (its words follow the language through `data-i18n`)
  els.keysHelp.dataset.i18n = lettersOn() ? "game.keys_help" : "game.keys_help_no_letters";
  els.keysHelp.textContent = t(els.keysHelp.dataset.i18n);
  // nor its turning buttons (greyed out, they looked like a control one could not work)
  page.dataset.watching = watchesOnly() ? "true" : "false";
  // The invitation is for a table that waits or plays: not one device's own table, nor a
  // finished game (its replay is the link to give).
  els.shareCard.hidden = passAndPlay || (!!app.room && app.room.status === "finished");
  renderChatNote();
}

/**
 * Spectators are told that their lines reach the other spectators only, and may give the
 * name they chat under (a crowd's lines were all "spectator"): the name this browser
 * last joined a table with, to begin with.
 */
function renderChatNote() {
  let note = document.getElementById("chat-note");
  if (!note) {
    const name = limitName(h("input", {
      id: "chat-name", autocomplete: "nickname", "data-testid": "chat-name",
      value: localStorage.getItem("labyrinth:name") || "",
    }));
    name.addEventListener("input", () => { name.dataset.typed = "1"; });
    note = h("div", { id: "chat-note", class: "chat-note", "data-testid": "chat-note" },
      h("p", { class: "chat-note-text" }),
      h("label", { class: "chat-as" }, h("span", { class: "chat-as-label" }), name));
    els.chatForm.before(note);
  }
  // The remembered name is not offered when a player at the table has it (a seat moved to
  // another device leaves its old tab watching under the player's own name, which the
  // server then refuses as taken); a name typed here stays as typed.
  const named = note.querySelector("#chat-name");
  if (!named.dataset.typed && seatedName(named.value)) named.value = "";
  // Pass-and-play: the line goes out from a player's seat, even during a computer's turn.
  note.hidden = !watchesOnly();
  note.querySelector(".chat-note-text").textContent = t("chat.spectator_note");
  note.querySelector(".chat-as-label").textContent = t("chat.as");
  note.querySelector("#chat-name").placeholder = t("room.spectator_name");
}

function renderLobby() {
  const room = app.room;
  if (!room) return;
  const tokens = passAndPlay ? socket.tokens() : null;
  renderTable({
    code, variant, room, seat: app.seat, seats: ownSeats(), token: app.token, tokens, showError, redraw: renderLobby,
    say: (text) => announcer.say(text),
  });
  focusTheEnd();
  const seated = app.seat !== null;
  const seats = room.seats;
  // A room message (someone joins, a presence changes) redraws the list: the focus stays
  // on the button it was on (the host's "Really remove Bob?" lost it, and the second
  // Enter did nothing).
  const active = document.activeElement;
  const focused = active && els.seats.contains(active) ? active.getAttribute("data-testid") : null;
  els.seats.replaceChildren();
  for (let i = 0; i < variant.maxPlayers; i++) {
    const s = seats.find((x) => x.seat === i);
    const color = roomColor(room, i);
    if (s) {
      els.seats.append(h("li", {
        class: "seat" + (s.seat === app.seat ? " mine" : ""), "data-testid": `seat-${i}`,
        "data-connected": s.connected ? "1" : "",
      },
        colorDot(color, "big"),
        h("span", { class: "seat-name" }, seatLabel(s)),
        s.kind === "bot" && !s.computer ? h("span", { class: "muted" }, ` (${t("room.bot")})`) : null,
        s.seat === app.seat ? h("span", { class: "muted" }, ` (${t("room.you")})`) : null,
        seatBadges(s),
        connMark(s.connected || s.kind === "bot", true),
        seatControls(s, app.seat)));
    } else {
      els.seats.append(h("li", { class: "seat free", "data-testid": `seat-${i}` },
        colorDot(color, "big hollow"), h("span", { class: "muted" }, t("room.free_seat"))));
    }
  }
  const again = focused && els.seats.querySelector(`[data-testid="${focused}"]`);
  if (again) again.focus({ preventScroll: true });
  const full = seats.length >= variant.maxPlayers;
  const lobby = room.status === "lobby";
  els.joinForm.hidden = seated || full || !lobby;
  // "You may take a free seat again" holds while one is free to take: the room filled up
  // (or its game started) and the notice said it still; a seat freed again says it again.
  if (els.seatNotice.dataset.kind === "freed" && els.seatNotice.dataset.words === "room.seat_freed") {
    els.seatNotice.textContent = t(lobby && !full ? "room.seat_freed" : "room.seat_freed_watching");
  }
  els.start.hidden = !mayStart(room, app.seat);
  els.start.disabled = seats.length < variant.minPlayers;
  if (seated) {
    // Enough players: the one who may start is asked to, the others told who will.
    const enough = seats.length >= variant.minPlayers;
    els.lobbyHelp.textContent = !enough
      ? (app.reopened ? t("room.reopened", { names: formatList(app.reopened), min: variant.minPlayers }) : t("room.need_players", { min: variant.minPlayers }))
      : t(mayStart(room, app.seat) ? "room.ready_help" : "room.seated_help", { min: variant.minPlayers });
  } else {
    els.lobbyHelp.textContent = full ? t("room.full") : t("room.lobby_help");
  }
}

/** Names stop at 32 characters: the form says so, and counts. */
function renderNameHelp() {
  const help = byId("join-name-help");
  const n = [...els.joinName.value].length;
  help.textContent = t("room.name_limit", { n });
  help.dataset.full = n >= NAME_MAX ? "true" : "false";
}

async function join(ev) {
  ev.preventDefault();
  const name = els.joinName.value.trim();
  els.lobbyError.textContent = "";
  if (!name) {
    // spaces only: said so (the counter beside it says "3/32", not "1 to 32 characters")
    els.lobbyError.textContent = t(els.joinName.value ? "error.name.blank" : "error.bad_name");
    return;
  }
  els.joinButton.disabled = true;
  try {
    const res = await tableApi.join(code, name, joinToken());
    app.token = res.token;
    app.seat = res.seat;
    saveToken(code, res.token);
    try {
      localStorage.setItem("labyrinth:name", name);
    } catch {
      /* not remembered */
    }
    if (!socket.hello()) socket.reconnectNow();
    renderLobby();
  } catch (err) {
    els.lobbyError.textContent = apiErrorWords(err);
  } finally {
    els.joinButton.disabled = false;
  }
}

async function start() {
  els.lobbyError.textContent = "";
  els.start.disabled = true;
  try {
    await api.start(code, startToken(app.token));
  } catch (err) {
    els.lobbyError.textContent = apiErrorWords(err);
    els.start.disabled = false;
  }
}

// ---------------------------------------------------------------- move log

/** The colour a seat of the room plays (or will play): the server says, by its game's
 * rules (`room.colors`). */
function roomColor(room, seat) {
  const colors = room && Array.isArray(room.colors) && room.colors.length ? room.colors : COLORS;
  return colors[seat % colors.length];
}

/** A seat's player as the page shows them (`app.names` keeps the names as sent). */
function seatName(seat) {
  return shownName(app.names.get(seat)) || `#${seat}`;
}

// ---------------------------------------------------------------- while you were away

/**
 * A state with the whole history (a reload, a reconnection) after moves this device did
 * not show: what happened meanwhile is said at the top until dismissed or until one of
 * the page's seats plays. Every state of a seated page is remembered as shown.
 */
function noteSince(msg, consecutive) {
  const gameId = app.room ? app.room.game_id : null;
  const seats = ownSeats();
  if (!gameId || !seats.length) return;
  if (Array.isArray(msg.history)) {
    const seen = loadSeen(code, gameId);
    if (seen !== null && seen < msg.seq) {
      // (news still shown reaches back further: it stays the start)
      const since = { seen: app.since ? Math.min(app.since.seen, seen) : seen, seats };
      app.since = sinceSummary(app.log, since.seen, seats, sinceContext()) ? since : app.since;
    }
  } else if (consecutive && msg.last && seats.includes(msg.last.seat) && !msg.last.by) {
    app.since = null;  // they are playing again: the news is behind them
  }
  if (passAndPlay && app.seat !== null) noteTurn(gameId, msg);
  saveSeen(code, gameId, msg.seq);
  renderSince();
}

/**
 * Pass-and-play: the device's next person gets their own view back (a state with its
 * move list) after others played; what those did is said at the top, as to a player
 * back from away, until they play or dismiss it. Remembered per seat for the page's
 * lifetime (a reload is a return like any, told by the device's own mark).
 */
function noteTurn(gameId, msg) {
  let seenBy = app.seenBy.get(gameId);
  if (!seenBy) {
    // The page's first sight of this game: each person has seen it as it is now (at the
    // start, nothing; after a reload, what the device showed before).
    seenBy = new Map(socket.seats().map((seat) => [seat, msg.seq]));
    app.seenBy.set(gameId, seenBy);
  }
  const seen = seenBy.get(app.seat);
  if (Array.isArray(msg.history) && seen !== undefined && seen < msg.seq) {
    app.since = { seen, seats: [app.seat], turn: true };
  }
  seenBy.set(app.seat, msg.seq);
}

/** Whether the seat of a turn's summary has played nothing before it: its first turn
 * follows the game's start, not a "last turn" of its own. */
function firstTurn(since) {
  const seat = since.seats[0];
  return !app.log.some((e) => e.seq <= since.seen && e.seat === seat);
}

function sinceContext() {
  return { names: seatName, single: !passAndPlay };
}

/**
 * Where the news of what went on meanwhile stands: above the board, but on a wide screen
 * at the top of the players' column beside it. Above the board it took the board's height
 * (a laptop's board went from 459 to 287 px at each person's turn on a shared device, and
 * back at their push): beside it, the board keeps its size and the news sits by the moves.
 */
function placeSince() {
  const wide = window.matchMedia("(min-width: 1200px)");
  const home = els.sinceBanner.nextElementSibling;
  const side = document.querySelector(".side-info");
  const place = () => {
    if (wide.matches && side) side.prepend(els.sinceBanner);
    else if (home && home.parentElement) home.before(els.sinceBanner);
  };
  place();
  wide.addEventListener("change", place);
}

/**
 * On a phone the classic and Team pages show the spare tile (or the spells) right under
 * the board and the turn's event after them (app.css); the keyboard's Tab and a screen
 * reader follow the document, not the picture, so the event panel is moved after the
 * controls there, and back before them elsewhere. Team's first card, still shut, is the
 * turn itself and stays first (the panel is watched for it).
 */
function placeEventPanel() {
  const phone = window.matchMedia("(max-width: 759px)");
  const panel = byId("event-panel");
  const controls = byId("controls");
  if (!panel || !controls) return;
  const place = () => {
    const after = phone.matches && (variantId === "classic" || variantId === "team")
      && !panel.querySelector("[data-testid=daedalus-shut]");
    if (after && controls.nextElementSibling !== panel) controls.after(panel);
    else if (!after && panel.nextElementSibling !== controls) controls.before(panel);
  };
  place();
  phone.addEventListener("change", place);
  new MutationObserver(place).observe(panel, { childList: true });
}

function renderSince() {
  const since = app.since;
  let summary = null;
  if (since && since.turn) summary = turnSummary(app.log, since.seen, since.seats[0], { names: seatName, variant: variant.id });
  else if (since) summary = sinceSummary(app.log, since.seen, since.seats, sinceContext());
  els.sinceBanner.hidden = !summary;
  if (!summary) return;
  els.sinceBanner.dataset.kind = since.turn ? "turn" : "away";
  els.sinceBanner.replaceChildren(
    h("div", { class: "since-text" },
      h("strong", {}, t(!since.turn ? "since.title" : firstTurn(since) ? "since.start_title" : "since.turn_title")), " ",
      ...summary.lines.flatMap((line, i) => [i ? " " : "", h("span", { "data-testid": "since-line" }, line)])),
    h("button", { type: "button", "data-testid": "since-ok", on: { click: () => { app.since = null; renderSince(); renderLog(); } } }, t("since.ok")));
}

function renderLog() {
  const list = els.log;
  list.replaceChildren();
  for (const entry of app.log) {
    // where the moves the banner tells begin
    if (app.since && entry.seq === app.since.seen + 1) {
      list.append(h("li", { class: "log-since", "data-testid": "log-since" }, t(app.since.turn ? "since.turn_mark" : "since.mark")));
    }
    const seat = entry.seat;
    const name = seat === null || seat === undefined ? "" : seatName(seat);
    const words = entryWords(entry.notation, { variant: variant.id, names: seatName, events: entry.events, seat });
    list.append(h("li", { class: "log-entry", "data-testid": "log-entry", "data-seq": entry.seq, "data-seat": seat ?? "" },
      h("span", { class: "log-seq" }, `${entry.seq}.`),
      seat === null || seat === undefined ? null : colorDot(app.colors.get(seat) || roomColor(app.room, seat)),
      h("span", { class: "log-text" }, h("span", { class: "log-name" }, name), " ", h("span", { class: "log-words", "data-testid": "log-words" }, words)),
      // the notation and its "time ran out" badge go under the words together, right
      // aligned: apart, a badge that no longer fit went alone under the move's number
      h("span", { class: "log-tags" },
        h("code", { class: "log-notation", title: t("legend.notation"), hidden: !notationPlaces(entry.notation) }, entry.notation || ""),
        byBadge(entry.by))));
  }
  els.logEmpty.hidden = app.log.length > 0;
  list.dataset.count = String(app.log.length);
  list.scrollTop = list.scrollHeight;
}

// ---------------------------------------------------------------- chat

function addChat(msg) {
  const from = msg.from || {};
  const seat = from.seat;
  const isSpectator = seat === null || seat === undefined;
  // A spectator's line under the name it gave, or "spectator" (the server's word for none).
  const name = isSpectator && (!from.name || from.name === "spectator") ? t("room.spectator_name") : from.name;
  const time = msg.at ? new Date(msg.at) : new Date();
  const stamp = Number.isNaN(time.getTime()) ? "" : time.toLocaleTimeString(lang(), { hour: "2-digit", minute: "2-digit" });
  const stick = els.chatLog.scrollTop + els.chatLog.clientHeight >= els.chatLog.scrollHeight - 20;
  els.chatLog.append(h("li", { class: "chat-line" + (isSpectator ? " spectator" : ""), "data-testid": "chat-line" },
    h("span", { class: "chat-time" }, stamp),
    isSpectator ? null : colorDot(app.colors.get(seat) || roomColor(app.room, seat)),
    h("span", { class: "chat-name" }, name),
    // which channel: told to a watcher, who reads both (a player reads only "to everyone")
    msg.channel && watchesOnly() ? h("span", { class: "chat-channel", "data-channel": msg.channel, "data-testid": "chat-channel" }, t(`chat.channel.${msg.channel}`)) : null,
    h("span", { class: "chat-text" }, msg.text)));
  while (els.chatLog.children.length > 200) els.chatLog.firstElementChild.remove();
  els.chatEmpty.hidden = true;
  if (stick) els.chatLog.scrollTop = els.chatLog.scrollHeight;
}

/** The line last sent, until the server says it or refuses it: {id, text}. */
let pendingChat = null;
let chatCount = 0;

/** Whether a seated player has this name, as loosely as the server compares names (case,
 * compatibility forms and the invisible characters of spelling aside; the server's
 * look-alike check is stricter still and says so if it refuses). */
function seatedName(name) {
  const key = (x) => String(x || "").normalize("NFKC").replace(/[\u200c\u200d\ufe0e\ufe0f]/g, "").trim().toLowerCase();
  const wanted = key(name);
  return !!wanted && !!app.room && app.room.seats.some((s) => key(s.name) === wanted);
}

function sendChat(ev) {
  ev.preventDefault();
  const text = els.chatInput.value.trim();
  if (!text) return;
  const line = { type: "chat", text: text.slice(0, 500), id: `chat-${++chatCount}` };
  // A spectator's chosen name (a seat's line goes under the seat's name).
  const named = document.getElementById("chat-name");
  const name = watchesOnly() && named ? named.value.trim() : "";
  if (name) line.name = name.slice(0, 32);
  if (socket.send(line)) {
    pendingChat = { id: line.id, text };
    els.chatInput.value = "";
  } else showError(t("room.conn.offline"));
}

// ---------------------------------------------------------------- share link

function setupShare() {
  els.share.value = `${location.origin}/r/${code}`;
  els.share.addEventListener("focus", () => els.share.select());
  els.copy.addEventListener("click", async () => {
    let ok = false;
    try {
      await navigator.clipboard.writeText(els.share.value);
      ok = true;
    } catch {
      els.share.focus();
      els.share.select();
      try {
        ok = document.execCommand("copy");
      } catch {
        ok = false;
      }
    }
    if (ok) {
      els.copy.textContent = t("room.copied");
      setTimeout(() => {
        els.copy.textContent = t("room.copy");
      }, 1500);
    }
  });
}

// ---------------------------------------------------------------- connection status

function renderConn(status) {
  els.conn.dataset.status = status;
  els.conn.textContent = t(`room.conn.${status}`);
  // Once connected, losing the connection is said where one plays, not only in the header.
  if (status === "online") app.wasOnline = true;
  const banner = els.offline;
  banner.hidden = !(app.wasOnline && (status === "offline" || status === "connecting"));
  banner.textContent = lostWords();
  page.dataset.conn = status;
}

// ---------------------------------------------------------------- pass-and-play

/** The shield between two players' views, and the header's "on this device" line. */
function setupPassAndPlay() {
  const shield = new PassShield(page, () => socket.reveal());
  socket.addEventListener("pass", (ev) => shield.show(ev.detail));
  socket.addEventListener("reveal", () => {
    shield.hide();
    // The next seat's own state and move list follow: nothing of the last seat's stays.
    app.seq = null;
    app.log = [];
    app.legalRef = null;
    app.waiting.clear();
  });
  const note = h("p", { class: "local-note muted", "data-testid": "local-note" });
  els.title.parentElement.append(note);
  const render = () => {
    const people = socket.people();
    note.hidden = !people.length;
    note.textContent = t("local.on_device", { names: formatList(people.map((s) => s.name || `#${s.seat}`)) });
  };
  render();
  onLanguageChange(render);
  onLanguageChange(renderDeviceHelp);
  renderDeviceHelp();
  // One of the device's seats went (left, moved to another device): the others play on.
  socket.addEventListener("dropped", (ev) => {
    const { name, why } = ev.detail;
    const key = why === "left" ? "local.left" : why === "device" ? "local.moved" : "local.freed";
    showNews(t(key, { name: shownName(name) }));
    render();
    renderDuringGame();
  });
}

// ---------------------------------------------------------------- start-up

function renderAll() {
  els.title.textContent = t("room.title", { code });
  els.variantName.textContent = t(variant.label, { id: variant.id });
  renderConn(socket.status);
  renderSpectators();
  renderLobby();
  renderOptions();
  renderNameHelp();
  renderLog();
  renderSince();
  if (app.game && app.hasState) app.game.render({});
  updateTitle(app.game ? app.game.view : null);
  renderDuringGame();
  clockView.render();
}

async function main() {
  initTable(code);
  initI18n();
  ensureSprite();
  setupShare();
  placeSince();
  placeEventPanel();
  try {
    els.joinName.value = localStorage.getItem("labyrinth:name") || "";
  } catch {
    els.joinName.value = "";
  }
  els.joinForm.addEventListener("submit", join);
  els.joinName.addEventListener("input", renderNameHelp);
  els.start.addEventListener("click", start);
  els.chatForm.addEventListener("submit", sendChat);
  setupSeatTools();
  socket.addEventListener("message", (ev) => onMessage(ev.detail));
  socket.addEventListener("status", (ev) => renderConn(ev.detail));
  onLanguageChange(renderAll);
  renderAll();
  try {
    const room = await api.getRoom(code);
    if (!app.room) setRoom(room);
  } catch (err) {
    showError(apiErrorWords(err));
  }
  await claimFromLink();
  if (passAndPlay) setupPassAndPlay();
  socket.connect();
}

main();
