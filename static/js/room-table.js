/**
 * The room's table parts around the game: the options in words (header), the seat
 * controls (leave, remove), the host's panel (options, open table, computer players), the
 * start rule, and after the game the replay link and "Play again".
 */

import { ApiError } from "./api.js";
import { byId, h } from "./dom.js";
import { apiErrorWords } from "./error-words.js";
import { formatList, t } from "./i18n.js";
import { applies, choiceEntries, refusedOptionsText } from "./options.js";
import { LEVELS, loadHostToken, seatName, tableApi } from "./table.js";

const els = {
  startRule: byId("start-rule"),
  host: byId("host-panel"),
  after: byId("after-game"),
};

/**
 * @typedef {{code: string, variant: any, room: any, seat: number|null, token: string|null,
 *            tokens?: string[]|null,
 *            showError: (text: string) => void,
 *            redraw?: () => void}} TableContext
 *   `tokens`: every seat this page plays (pass-and-play): "Play again" accepts for all
 *   `redraw`: draws the seat list again (a host's Remove asking to be pressed once more)
 */

/** @type {TableContext|null} */
let ctx = null;
let hostToken = null;
let ticker = null;
/** Level picked in the host panel, kept across re-renders. */
let pickedLevel = "medium";

export function initTable(code) {
  hostToken = loadHostToken(code);
  return hostToken;
}

export function isHost() {
  return !!hostToken;
}

function fail(err) {
  if (!ctx) return;
  ctx.showError(apiErrorWords(err));
}

/** Seconds until `iso` (an ISO time), at least 0. */
function secondsUntil(iso) {
  const at = Date.parse(iso);
  return Number.isNaN(at) ? 0 : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** When others may start: null while the host is here. */
function othersMayStartIn(room) {
  const host = room.host;
  if (!host || host.connected || !host.away_since) return null;
  const at = Date.parse(host.away_since) + host.grace * 1000;
  return Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** Whether this page may press Start: the host, or anyone seated once the host is gone. */
export function mayStart(room, seat) {
  if (!room || room.status !== "lobby") return false;
  // The host starts with the host's key, seated or not (a host who gave up their seat was
  // told "…then start" and shown no Start).
  if (hostToken) return true;
  if (seat === null) return false;
  if (!room.host || room.host.seat === null || room.host.seat === seat) return true;
  return othersMayStartIn(room) === 0;
}

/** The token Start is sent with: the host's key when this page holds it. */
export function startToken(token) {
  return hostToken || token;
}

/** The host's key goes along with a join, so the host's seat is known. */
export function joinToken() {
  return hostToken;
}

/** A seat's small controls: leave one's own seat, or (host) remove another. */
export function seatControls(s, seat) {
  if (!ctx || !ctx.room || ctx.room.status !== "lobby") return null;
  const mine = s.seat === seat;
  if (!mine && !hostToken) return null;
  const asking = !mine && isArmed(s);
  const label = mine ? t("room.leave") : t(asking ? "room.remove_sure" : "room.remove");
  // Each host's button names its seat's player: a screen reader heard "Remove" as often
  // as there were seats.
  const named = mine ? label : t(asking ? "room.remove_sure_named" : "room.remove_named", { name: seatName(s) });
  return h("button", {
    type: "button", class: "small secondary seat-remove" + (asking ? " asking" : ""),
    "data-testid": mine ? "leave-seat" : `remove-seat-${s.seat}`,
    title: named, "aria-label": named,
    on: { click: () => (mine || s.kind === "bot" || asking ? removeSeat(s.seat, mine) : arm(s)) },
  }, label);
}

/** How long a host's first press on a person's Remove waits for the second. */
const ARMED_MS = 5000;
/** The person's seat whose Remove was pressed once: {seat, name, timer}. */
let armed = null;

function isArmed(s) {
  return !!armed && armed.seat === s.seat && armed.name === s.name;
}

/** A person's seat is freed on a second press: a slip of the finger sent a friend back to
 * the join form (a computer is added again in one press, so it goes at once). */
function arm(s) {
  if (armed) clearTimeout(armed.timer);
  armed = { seat: s.seat, name: s.name, timer: setTimeout(() => { armed = null; redrawSeats(); }, ARMED_MS) };
  redrawSeats();
  const again = document.querySelector(`[data-testid=remove-seat-${s.seat}]`);
  if (again) again.focus();
}

/** The seat list drawn again from what the page has (the armed button's words change). */
function redrawSeats() {
  if (ctx && ctx.redraw) ctx.redraw();
}

/** This page asked to leave its own seat: the seat's end is then no news from the host. */
let leaving = false;

async function removeSeat(number, mine) {
  leaving = mine;
  if (armed) clearTimeout(armed.timer);
  armed = null;
  const pressed = document.activeElement && document.activeElement.closest ? document.activeElement.closest("button") : null;
  try {
    await tableApi.removeSeat(ctx.code, number, mine && !hostToken ? ctx.token : hostToken || ctx.token);
    // The seat's button went with its seat: a keyboard player's focus goes on in the
    // host's panel (Add a computer), not to the top of the page.
    if (pressed && (!pressed.isConnected || document.activeElement === document.body)) focusAfterRemoval();
  } catch (err) {
    leaving = false;
    fail(err);
  }
}

/** Where the focus goes once a seat's Remove is gone: Add, else the seat list. */
function focusAfterRemoval() {
  const add = /** @type {HTMLButtonElement|null} */ (document.querySelector("[data-testid=add-computer]"));
  if (add && !add.disabled && add.offsetParent !== null) {
    add.focus();
    return;
  }
  const seats = document.getElementById("seat-list");
  if (seats) {
    if (!seats.hasAttribute("tabindex")) seats.setAttribute("tabindex", "-1");
    seats.focus();
  }
}

/** Whether the seat this page just lost was left from this page (read once). */
export function leftOwnSeat() {
  const was = leaving;
  leaving = false;
  return was;
}

/** A seat's badges after its name: computer level is in the name; host is marked. */
export function seatBadges(s) {
  return s.host ? h("span", { class: "badge host-badge", "data-testid": "host-badge" }, t("seat.host")) : null;
}

function renderStartRule(room, seat) {
  const el = els.startRule;
  el.hidden = room.status !== "lobby";
  if (el.hidden) return;
  const wait = othersMayStartIn(room);
  if (hostToken) el.textContent = t("room.host_help");
  else if (!room.host || room.host.seat === null) el.textContent = t("room.start_any");
  else if (wait === null) el.textContent = t("room.start_rule", { s: room.host ? room.host.grace : 60 });
  else if (wait > 0) el.textContent = t("room.host_away_wait", { s: wait });
  else el.textContent = t("room.host_away_now");
  el.dataset.seated = seat === null ? "" : "1";
}

/** The host's control of one option; in a `unique` group's list, the values another option
 * holds are disabled, saying whose they are (Red's spell is not Yellow's to choose). */
function optionControl(variant, opt, value) {
  const id = `room-opt-${opt.key}`;
  /** @type {HTMLSelectElement|HTMLInputElement} */
  let control;
  // A refused change leaves the control showing the option in force, as the room's words
  // do (the panel is not redrawn under the host's hands), and says why in the page's words.
  const send = (v) => {
    const options = { ...ctx.room.options, [opt.key]: v };
    return tableApi.update(ctx.code, hostToken, { options }).catch((err) => {
      const now = (ctx.room.options || {})[opt.key] ?? opt.default;
      if (opt.type === "choice") control.value = now;
      else control.checked = !!now;
      if (err instanceof ApiError && err.status && err.code === "bad_options") ctx.showError(refusedOptionsText(variant, options));
      else fail(err);
    });
  };
  if (opt.type === "choice") {
    const select = control = h("select", { id, "data-testid": id, on: { change: (ev) => send(ev.target.value) } },
      ...choiceEntries(variant, ctx.room.options, opt).map((e) => h("option", { value: e.value, disabled: e.disabled }, e.text)));
    select.value = value;
    return h("div", { class: "option choice" }, h("label", { for: id }, t(opt.label)), select);
  }
  const input = control = h("input", { type: "checkbox", id, "data-testid": id, on: { change: (ev) => send(ev.target.checked) } });
  input.checked = !!value;
  return h("div", { class: "option" }, input, h("label", { for: id }, t(opt.label)));
}

function renderHostPanel(room) {
  const panel = els.host;
  panel.hidden = !hostToken || room.status !== "lobby";
  if (panel.hidden) return;
  // Do not rebuild under the user's hands (an open select would close).
  if (panel.contains(document.activeElement) && panel.dataset.options === JSON.stringify(room.options)) return;
  panel.dataset.options = JSON.stringify(room.options);
  // An option changed by the host's own hand (an arrow key on a list changes it at once)
  // is drawn again: the focus stays on that control (it fell to the top of the page, and
  // the next arrow key went nowhere).
  const focused = panel.contains(document.activeElement) ? document.activeElement.id : "";
  const variant = ctx.variant;
  const full = room.seats.length >= variant.maxPlayers;
  const level = h("select", { id: "computer-level", "data-testid": "computer-level", on: { change: (ev) => { pickedLevel = ev.target.value; } } },
    ...LEVELS.map((lv) => h("option", { value: lv }, t(`level.${lv}`))));
  level.value = pickedLevel;
  const listed = h("input", {
    type: "checkbox", id: "room-listed", "data-testid": "room-listed",
    on: { change: (ev) => tableApi.update(ctx.code, hostToken, { listed: ev.target.checked }).catch(fail) },
  });
  listed.checked = !!room.listed;
  panel.replaceChildren(...[
    h("h3", {}, t("room.host_panel")),
    variant.options.length
      ? h("fieldset", { class: "options" }, h("legend", {}, t("room.options_title")),
        ...variant.options.filter((opt) => applies(opt, room.options))
          .map((opt) => optionControl(variant, opt, room.options[opt.key] ?? opt.default)))
      : null,
    h("div", { class: "option" }, listed, h("label", { for: "room-listed" }, t("room.listed"))),
    h("div", { class: "add-computer row" },
      h("label", { for: "computer-level" }, t("room.add_computer")),
      level,
      h("button", {
        type: "button", "data-testid": "add-computer", disabled: full,
        on: { click: () => tableApi.addComputer(ctx.code, hostToken, level.value).catch(fail) },
      }, t("room.add"))),
  ].filter(Boolean));
  const again = focused ? document.getElementById(focused) : null;
  if (again && panel.contains(again)) again.focus();
}

/**
 * The finished game's panel's parts, kept across its redraws: it is drawn again every
 * second while an offer counts down, and a button replaced under a finger lost the tap
 * (and its "sent" state); only the status line's words change each second.
 */
let after = null;

function renderAfterGame(room, seat, token) {
  const panel = els.after;
  const finished = room.status === "finished" && !!room.game_id;
  panel.hidden = !finished;
  if (!finished) return;
  const offer = room.rematch && room.rematch.game === room.game_id ? room.rematch : null;
  const mine = offer && seat !== null && offer.accepted.includes(seat);
  if (!after || after.game !== room.game_id) {
    after = {
      game: room.game_id,
      replay: h("a", { class: "button secondary", "data-testid": "watch-replay", href: `/replay/${encodeURIComponent(room.game_id)}` }, t("room.watch_replay")),
      // Focusable by script: where a keyboard player's focus goes when the button they
      // pressed ("Play again") is taken away by their own acceptance.
      status: h("p", { class: "rematch-status", "data-testid": "rematch-status", tabindex: "-1" }),
      key: null,
      button: null,
      /** The status is to take the focus once it is shown (the button pressed is gone). */
      focusStatus: false,
      /** What a screen reader was last told of the offer ("" before any). */
      told: "",
      // "No thanks": the offer need not wait its minute for someone who will not play
      // again (their seat is freed; the others may all have accepted already).
      decline: h("button", {
        type: "button", class: "secondary", "data-testid": "rematch-decline",
        on: {
          click: async (ev) => {
            ev.target.disabled = true;
            leaving = true;
            try {
              await tableApi.removeSeat(ctx.code, ctx.seat, ctx.token);
            } catch (err) {
              leaving = false;
              ev.target.disabled = false;
              fail(err);
            }
          },
        },
      }, t("room.rematch_decline")),
    };
  }
  const key = seat === null || mine ? null : offer ? "room.accept_again" : "room.play_again";
  if (key !== after.key || (after.button && after.button.textContent !== t(key))) {
    after.key = key;
    after.button = key === null ? null : h("button", {
      type: "button", class: "primary", "data-testid": "play-again",
      on: {
        click: async (ev) => {
          const button = /** @type {HTMLButtonElement} */ (ev.currentTarget);
          const pressed = document.activeElement === button;
          button.disabled = true;
          try {
            // One by one: the last acceptance starts the next game.
            for (const each of ctx.tokens && ctx.tokens.length ? ctx.tokens : [token]) await tableApi.rematch(ctx.code, each);
            if (pressed || document.activeElement === document.body) focusStatus();
          } catch (err) {
            button.disabled = false;
            if (pressed) button.focus();
            fail(err);
          }
        },
      },
    }, t(key));
  }
  after.replay.textContent = t("room.watch_replay");
  after.decline.textContent = t("room.rematch_decline");
  const declines = !!offer && seat !== null && !mine && !(ctx.tokens && ctx.tokens.length > 1);
  if (offer) {
    after.status.replaceChildren(
      t("room.rematch_status", { ready: offer.accepted.length, total: (offer.asked || room.seats).length, s: secondsUntil(offer.deadline) }),
      mine ? " " + t("room.rematch_mine") : "",
      waitingFor(room, offer, seat) || "");
  }
  const parts = [after.replay, after.button, declines ? after.decline : null, offer ? after.status : null].filter(Boolean);
  const shown = [...panel.children];
  if (shown.length !== parts.length || shown.some((el, i) => el !== parts[i])) panel.replaceChildren(...parts);
  if (after.focusStatus && after.status.isConnected) {
    after.focusStatus = false;
    after.status.focus();
  }
  tellOffer(room, offer, seat, mine, declines);
}

/** After one's own "Play again": the focus goes to the offer's status ("You are ready to
 * play again. Waiting for Bob.") rather than to the top of the page, now or once shown. */
function focusStatus() {
  if (!after) return;
  if (after.status.isConnected) after.status.focus();
  else after.focusStatus = true;
}

/**
 * The offer is said to a screen reader when it starts and when one's own acceptance is
 * taken (the status line is no live region: its countdown changes every second). Bob's
 * page showed "Accept: play again" silently.
 */
function tellOffer(room, offer, seat, mine, declines) {
  if (!ctx.say) return;
  const told = !offer || seat === null ? "" : mine ? "mine" : "asked";
  if (told === after.told) return;
  after.told = told;
  if (told === "asked") {
    const names = room.seats.filter((s) => offer.accepted.includes(s.seat) && !(ctx.seats || [seat]).includes(s.seat)).map((s) => seatName(s));
    const choose = declines
      ? t("room.rematch_choose", { accept: t("room.accept_again"), decline: t("room.rematch_decline") })
      : t("room.rematch_choose_accept", { accept: t("room.accept_again") });
    ctx.say(`${t("room.rematch_offered", { n: names.length, names: formatList(names) })} ${choose}`);
  } else if (told === "mine") {
    const waiting = waitingFor(room, offer, seat);
    ctx.say([t("room.rematch_mine"), waiting ? waiting.textContent : ""].join(" "));
  }
}

/** " Waiting for Bob and Cat.": who the offer still waits for, by name ("2 of 3 ready"
 * said how many, not who), but the viewer, whose button asks already ("Waiting for
 * Bruno" on Bruno's own screen). */
function waitingFor(room, offer, seat) {
  const asked = offer.asked || room.seats.map((s) => s.seat);
  const own = new Set(ctx.seats || [seat]);
  const names = room.seats.filter((s) => asked.includes(s.seat) && !offer.accepted.includes(s.seat) && !own.has(s.seat)).map((s) => seatName(s));
  return names.length ? h("span", { "data-testid": "rematch-waiting" }, " ", t("room.rematch_waiting", { names: formatList(names) })) : null;
}

/** Render every table part for the room as last sent. */
export function renderTable(context) {
  ctx = context;
  const { room, seat, token } = context;
  if (!room) return;
  renderStartRule(room, seat);
  renderHostPanel(room);
  renderAfterGame(room, seat, token);
  // Countdowns (host away, play again) tick while they matter.
  const ticking = (room.status === "lobby" && room.host && !room.host.connected) || !!room.rematch;
  if (ticking && !ticker) ticker = setInterval(() => ctx && renderTable(ctx), 1000);
  if (!ticking && ticker) {
    clearInterval(ticker);
    ticker = null;
  }
}

