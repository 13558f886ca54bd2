/**
 * The replay page (`/replay/{id}?at=N`): a finished game step by step, everything revealed.
 *
 * One request (`GET /api/games/{id}/replay?frames=patches`) brings the moves, the first
 * frame and one patch per step, computed by the server from the record with the engine's
 * `reveal`; stepping is then pure rendering, no network. Each frame is drawn by the
 * variant's own game UI (the same class the room page uses): the page's entry script
 * imports it and hands it to `startReplay`, so a new variant replays once it is in
 * `GAME_UIS` (app/web/pages.py).
 */

import { ReplayAnalysis } from "./analysis.js";
import { answerBody, ApiError, loadToken, request } from "./api.js";
import { loadLocalSeats } from "./local-seats.js";
import { PatchedFrames } from "./patches.js";
import { byId, colorDot, flash, h, unflash } from "./dom.js";
import { formatDate, formatList, initI18n, lang, onLanguageChange, t } from "./i18n.js";
import { byBadge, entryWords, eventWords, moveWords, notationPlaces } from "./movelog.js";
import { ensureSprite, TREASURES, treasureIcon } from "./tiles.js";
import { loadHostToken, shownName } from "./table.js";
import { COLORS, variantById } from "./variants.js";

/** Player fields every view shows; any other field of a frame's player is a secret. */
const PUBLIC_PLAYER_FIELDS = new Set(["seat", "name", "color", "pos", "home", "found", "remaining", "team",
  // master, team and cards: scores, counts, treasure boards (what may be collected from them) and spells are on every view
  "treasures", "coins", "dragon", "score", "hand_count", "low_count", "board", "cards", "collectable", "spells", "taken"]);
const TREASURE_SET = new Set(TREASURES);

const page = byId("replay-page");
const gameId = page.dataset.game;

const els = {
  title: byId("replay-title"),
  variantName: byId("replay-variant"),
  imported: byId("replay-imported"),
  players: byId("replay-players"),
  room: byId("replay-room"),
  error: byId("replay-error"),
  position: byId("replay-position"),
  first: byId("replay-first"),
  prev: byId("replay-prev"),
  play: byId("replay-play"),
  next: byId("replay-next"),
  last: byId("replay-last"),
  scrub: byId("replay-scrub"),
  speed: byId("replay-speed"),
  moves: byId("replay-moves"),
  secrets: byId("replay-secrets"),
  secretsTitle: byId("replay-secrets-title"),
  events: byId("replay-events"),
  news: byId("replay-news"),
  seedHash: byId("replay-seed-hash"),
  seed: byId("replay-seed"),
  verify: byId("replay-verify"),
  download: byId("replay-download"),
  verdict: byId("replay-verdict"),
  board: byId("replay-board"),
  analysis: byId("replay-analysis"),
  analysisNote: byId("replay-analysis-note"),
};

/** Timings for bench/replay_speed.py: ms since navigation start, and per-step render ms. */
const timings = { firstFrame: null, firstPaint: null, loaded: null, steps: [] };
window.__replayTimings = timings;

const state = {
  /** @type {object|null} the replay body */
  data: null,
  /** @type {PatchedFrames|null} the frames, built from the body's patches as needed */
  frames: null,
  /** the step shown: 0 is the set-up, k the state after the move of seq k */
  at: 0,
  ui: null,
  timer: null,
  /** @type {HTMLElement[]} move list entries by step */
  entries: [],
  verdict: null,
  /** whether the first frame has been painted (what may wait until then, waits) */
  painted: false,
  /** what the revealed panel shows now (see renderSecrets) */
  secretsSig: "",
  /** @type {ReplayAnalysis|null} the game's analysis, once asked for */
  analysis: null,
};

// ---------------------------------------------------------------- drawing one step

function lastOf(k) {
  const move = state.data.moves[k - 1];
  return move ? { seq: move.seq, seat: move.seat, action: move.action, events: move.events, notation: move.notation } : null;
}

/** Show step `k`; `consecutive` lets the game UI animate a single step forward. */
function show(k, consecutive = false) {
  const data = state.data;
  if (!data || !state.ui) return;
  const n = state.frames.length - 1;
  const at = Math.max(0, Math.min(n, k));
  const began = performance.now();
  const previous = state.at;
  state.at = at;
  // The news of the step shown before no longer applies (a single step forward shows its own).
  unflash(els.news);
  // The analysis may show, instead, the position after a better push than the one played.
  const preview = state.analysis && state.analysis.frameFor(at);
  state.ui.setState({ type: "state", seq: at, view: preview || state.frames.at(at), last: at && !preview ? lastOf(at) : null },
    consecutive && at === previous + 1);
  if (state.analysis) state.analysis.show(els.board, els.analysisNote, at);
  renderPosition();
  highlight(previous, at);
  if (at !== previous) sayStep(at);
  renderSecrets();
  renderEvents();
  scheduleUrl();
  const spent = performance.now() - began;
  if (timings.firstFrame === null) {
    timings.firstFrame = performance.now();
    afterPaint().then(() => {
      timings.firstPaint = performance.now();
    });
  } else timings.steps.push(spent);
  page.dataset.at = String(at);
}

let urlTimer = null;
/** Keep `?at=N` in the address bar; batched, since browsers throttle `replaceState`. */
function scheduleUrl() {
  if (urlTimer !== null) return;
  urlTimer = setTimeout(() => {
    urlTimer = null;
    const url = new URL(location.href);
    url.searchParams.set("at", String(state.at));
    history.replaceState(null, "", url);
  }, 120);
}

function renderPosition() {
  const n = state.frames.length - 1;
  const at = state.at;
  els.scrub.max = String(n);
  els.scrub.value = String(at);
  els.position.textContent = t("replay.position", { k: at, n });
  els.position.dataset.at = String(at);
  els.first.disabled = els.prev.disabled = at === 0;
  els.last.disabled = els.next.disabled = at === n;
}

/**
 * What the step just shown did, said (audit 2: a step said only "Move 4 of 192" and the
 * next turn's line, never the move): the move list's words for it, after the position.
 * One polite region of its own, so the position (in the heading) is no longer live too.
 */
let stepRegion = null;
function sayStep(at) {
  if (!stepRegion) {
    stepRegion = h("div", { class: "visually-hidden", "aria-live": "polite", "aria-atomic": "true", "data-testid": "replay-said" });
    page.append(stepRegion);
    els.position.removeAttribute("aria-live");
  }
  const move = state.data.moves[at - 1];
  let words = t("replay.start");
  if (move) {
    const who = names();
    const seatName = (s) => who[s] ?? `#${s}`;
    const cause = byBadge(move.by);
    words = [seatName(move.seat), cause ? `(${cause.textContent})` : "",
      entryWords(move.notation, { variant: page.dataset.variant, names: seatName, events: move.events, seat: move.seat })].filter(Boolean).join(" ");
  }
  stepRegion.textContent = t("a11y.replay_step", { position: els.position.textContent, move: words });
}

function highlight(previous, at) {
  const old = state.entries[previous];
  if (old) {
    old.classList.remove("current");
    old.removeAttribute("aria-current");
  }
  const entry = state.entries[at];
  if (!entry) return;
  entry.classList.add("current");
  entry.setAttribute("aria-current", "step");
  // Scrolled in the next frame, where layout happens anyway: reading positions now would
  // force a second layout of the freshly drawn board.
  requestAnimationFrame(() => scrollToEntry(entry));
}

function scrollToEntry(entry) {
  if (!entry.classList.contains("current")) return;
  const list = els.moves;
  // Measured from the boxes, not offsetTop, which depends on which ancestor is contained.
  const top = entry.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
  if (top < list.scrollTop) list.scrollTop = top;
  else if (top + entry.offsetHeight > list.scrollTop + list.clientHeight) {
    list.scrollTop = top + entry.offsetHeight - list.clientHeight;
  }
}

function names() {
  return state.data.players.map((p) => shownName(typeof p === "string" ? p : p && p.name) || "?");
}

/** A secret value as icons (treasures) or text, never as markup. */
function secretValue(value) {
  const items = Array.isArray(value) ? value : [value];
  const out = h("span", { class: "secret-value" });
  // "Hand —" read as a value missing from the record; an empty hand or pile is a fact
  if (!items.length) out.append(h("span", { class: "muted", "data-empty": "" }, t("replay.empty")));
  for (const item of items) {
    if (typeof item === "string" && TREASURE_SET.has(item)) out.append(treasureIcon(item, 24));
    else if (item === null) out.append(h("span", { class: "muted" }, t("replay.none")));
    else out.append(h("code", {}, typeof item === "object" ? JSON.stringify(item) : String(item)));
  }
  return out;
}

/** Every player's hidden fields in this frame (targets, piles, hands...); redrawn only
 * when they changed, which most steps they do not. */
function renderSecrets() {
  const frame = state.frames.at(state.at);
  const sig = lang() + JSON.stringify(frame.players || []);
  if (sig === state.secretsSig) return;
  state.secretsSig = sig;
  els.secrets.replaceChildren();
  // what the game's own panels already draw (the card game's every hand) is not repeated
  const drawn = (state.ui && state.ui.drawnSecrets) || new Set();
  for (const p of frame.players || []) {
    const fields = Object.entries(p).filter(([key]) => !PUBLIC_PLAYER_FIELDS.has(key) && !drawn.has(key));
    if (!fields.length) continue;
    const row = h("li", { class: "secret-player", "data-testid": `secrets-${p.seat}` },
      h("div", { class: "player-line" }, colorDot(p.color || COLORS[p.seat % 4]), h("span", { class: "player-name" }, shownName(p.name))));
    for (const [key, value] of fields) {
      const label = t(`replay.secret.${key}`);
      row.append(h("div", { class: "secret-field", "data-field": key },
        h("span", { class: "secret-label" }, label === `replay.secret.${key}` ? key : label), " ",
        state.ui.secretValue(key, value) || secretValue(value)));
    }
    els.secrets.append(row);
  }
  els.secretsTitle.hidden = els.secrets.childElementCount === 0;
}

/** The move that led to this frame and its events, in words, cells as a1-g7. */
function renderEvents() {
  const move = state.data.moves[state.at - 1];
  els.events.replaceChildren();
  if (!move) return;
  const who = names();
  const seatName = (s) => who[s] ?? `#${s}`;
  const list = h("ul", { class: "event-list" });
  for (const ev of move.events || []) {
    const words = eventWords(ev, { names: seatName });
    if (words) list.append(h("li", { "data-event": ev.type }, words));
  }
  els.events.append(
    h("h3", {}, t("replay.events", { seq: move.seq })),
    h("p", { class: "replay-move-words", "data-testid": "replay-move-words" },
      h("strong", {}, seatName(move.seat)), " ", moveWords(move.notation, { variant: page.dataset.variant, names: seatName, events: move.events }) || move.notation,
      " ", h("code", { class: "log-notation" }, move.notation || "")),
    list);
}

// ---------------------------------------------------------------- the move list

/** Each seat's colour as the game drew it (a third seat of three is blue, not the third
 * colour of the list), for the dots of the move list. */
function seatColor() {
  const players = (state.data.start && state.data.start.players) || [];
  const drawn = new Map(players.filter((p) => p && p.color).map((p) => [p.seat, p.color]));
  return (seat) => drawn.get(seat) || COLORS[seat % COLORS.length];
}

function buildMoveList() {
  const data = state.data;
  const who = names();
  const color = seatColor();
  const seatName = (s) => who[s] ?? `#${s}`;
  els.moves.replaceChildren();
  state.entries = [];
  const start = h("li", { class: "log-entry replay-entry", "data-testid": "replay-move", "data-step": "0" },
    h("button", { type: "button", class: "link-button", on: { click: () => goTo(0) } },
      h("span", { class: "log-seq" }, "0."), h("span", { class: "log-name" }, t("replay.start"))));
  state.entries.push(start);
  els.moves.append(start);
  for (const move of data.moves) {
    const seat = move.seat;
    // (a move the server played for the seat says so after the name, within the words'
    // two lines: a label of its own beside them squeezed them beside an analysis mark)
    const cause = byBadge(move.by);
    const words = entryWords(move.notation, { variant: page.dataset.variant, names: seatName, events: move.events, seat: move.seat });
    const text = h("span", { class: "log-text" }, h("span", { class: "log-name" }, seatName(seat)), " ",
      ...(cause ? [cause, " "] : []), words);
    // the list shows two lines of it: the rest on hover
    text.title = cause ? `${seatName(seat)} (${cause.textContent}) ${words}` : text.textContent;
    const entry = h("li", { class: "log-entry replay-entry", "data-testid": "replay-move", "data-step": String(move.seq) },
      h("button", { type: "button", class: "link-button", on: { click: () => goTo(move.seq) } },
        h("span", { class: "log-seq" }, `${move.seq}.`),
        colorDot(color(seat)),
        text,
        h("code", { class: "log-notation", hidden: !notationPlaces(move.notation) }, move.notation || "")));
    state.entries.push(entry);
    els.moves.append(entry);
  }
  els.moves.dataset.count = String(data.moves.length);
  if (state.analysis) state.analysis.markEntries(state.entries, goTo);
}

// ---------------------------------------------------------------- stepping and autoplay

function goTo(k) {
  stop();
  show(k);
}

function step(delta) {
  show(state.at + delta, delta === 1);
}

function playing() {
  return state.timer !== null;
}

function play() {
  if (!state.data) return;
  if (state.at >= state.frames.length - 1) show(0);
  state.timer = setInterval(() => {
    if (state.at >= state.frames.length - 1) stop();
    else step(1);
  }, Number(els.speed.value) || 1000);
  renderPlay();
}

function stop() {
  if (state.timer !== null) clearInterval(state.timer);
  state.timer = null;
  renderPlay();
}

function renderPlay() {
  const on = playing();
  els.play.textContent = on ? "⏸" : "▶";
  const label = t(on ? "replay.pause" : "replay.play");
  els.play.title = label;
  els.play.setAttribute("aria-label", label);
  els.play.setAttribute("aria-pressed", on ? "true" : "false");
  page.dataset.playing = on ? "true" : "false";
}

function onKey(ev) {
  if (ev.ctrlKey || ev.metaKey || ev.altKey || !state.data) return;
  const target = ev.target;
  const tag = (target && target.tagName) || "";
  if (tag === "TEXTAREA" || tag === "SELECT" || (target && target.isContentEditable)) return;
  if (tag === "INPUT" && target !== els.scrub) return;
  const n = state.frames.length - 1;
  const keys = {
    ArrowLeft: () => { stop(); step(-1); },
    ArrowRight: () => { stop(); step(1); },
    Home: () => goTo(0),
    End: () => goTo(n),
    " ": () => (playing() ? stop() : play()),
  };
  const fn = keys[ev.key];
  if (!fn) return;
  ev.preventDefault();
  fn();
}

// ---------------------------------------------------------------- fairness

async function verify() {
  els.verify.disabled = true;
  els.verdict.hidden = false;
  els.verdict.dataset.ok = "";
  els.verdict.replaceChildren(t("replay.verifying"));
  try {
    state.verdict = await request("POST", `/api/games/${encodeURIComponent(gameId)}/verify`);
  } catch (err) {
    state.verdict = { error: err instanceof ApiError ? err.message : t("error.network") };
  } finally {
    els.verify.disabled = false;
  }
  renderVerdict();
}

/** The checks `POST /api/games/{id}/verify` makes (app/records.py), said in words here. */
const CHECKS = new Set(["seed_hash", "replay", "finished", "final_seq", "result"]);

function renderVerdict() {
  const v = state.verdict;
  if (!v) return;
  els.verdict.hidden = false;
  els.verdict.replaceChildren();
  if (v.error) {
    els.verdict.dataset.ok = "false";
    els.verdict.append(v.error);
    return;
  }
  els.verdict.dataset.ok = v.ok ? "true" : "false";
  els.verdict.append(h("strong", {}, t(v.ok ? "replay.verified_ok" : "replay.verified_fail")));
  const list = h("ul", { class: "check-list" });
  const figures = h("ul", { class: "check-figures" });
  for (const c of v.checks) {
    // Each known check in the page's language; its figures (hashes, counts, the result
    // as JSON: the server's words) folded away below, for whoever checks them by hand.
    const known = CHECKS.has(c.name);
    list.append(h("li", { class: c.ok ? "ok" : "fail", "data-check": c.name },
      c.ok ? "✓ " : "✗ ", h("strong", {}, known ? t(`check.${c.name}`) : c.name), t("check.sep"),
      known ? t(`check.${c.name}.${c.ok ? "ok" : "fail"}`) : c.detail));
    if (known) figures.append(h("li", { "data-figure": c.name }, h("code", { class: "check-detail" }, c.detail)));
  }
  els.verdict.append(list);
  if (figures.childElementCount) {
    els.verdict.append(h("details", { class: "check-more", "data-testid": "check-figures" },
      h("summary", {}, t("check.figures")), figures));
  }
}

async function download() {
  try {
    const record = await request("GET", `/api/games/${encodeURIComponent(gameId)}/record`);
    const blob = new Blob([JSON.stringify(record, null, 1)], { type: "application/json" });
    const url = URL.createObjectURL(blob);
    const a = h("a", { href: url, download: `labyrinth-${gameId}.json` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  } catch (err) {
    showError(err instanceof ApiError ? err.message : t("error.network"));
  }
}

// ---------------------------------------------------------------- page

function showError(text) {
  els.error.hidden = false;
  els.error.textContent = text;
}

function showNews(text) {
  flash(els.news, text, 2500);
}

function createUI(Ui) {
  if (!Ui) return null;
  return new Ui(
    {
      board: byId("replay-board"),
      spare: byId("replay-spare"),
      rotateCw: byId("replay-rotate-cw"),
      rotateCcw: byId("replay-rotate-ccw"),
      stay: byId("replay-stay"),
      controls: byId("replay-controls-card"),
      turn: byId("replay-turn"),
      seq: byId("replay-position"),
      target: byId("replay-target"),
      event: byId("replay-event"),
      players: byId("replay-player-list"),
      result: byId("replay-result"),
      hand: byId("replay-hand"),
    },
    {
      sendAction: () => false,
      requestLegal: () => {},
      showError,
      showNews,
      isConnected: () => null,
    },
  );
}

function renderHead() {
  const data = state.data;
  const variant = variantById(page.dataset.variant);
  els.variantName.textContent = variant ? t(variant.label) : t("variant.unknown", { id: page.dataset.variant });
  if (!data) return;
  els.title.textContent = t("replay.title");
  els.imported.hidden = !data.imported;
  // The date waits for the first frame: the first date formatted loads the browser's
  // locale data, about 15 ms.
  const date = state.painted && data.finished_at ? " · " + formatDate(data.finished_at) : "";
  els.players.textContent = formatList(names()) + date;
  // A player who came here from the end of the game (its "Watch the replay") had no way
  // back to the table but the browser's Back, and missed the "Play again" asked there.
  const room = data.room;
  const seated = !!room && !!(loadToken(room) || loadLocalSeats(room).length || loadHostToken(room));
  els.room.hidden = !seated;
  if (seated) els.room.href = `/r/${encodeURIComponent(room)}`;
  els.seedHash.textContent = data.seed_hash || "";
  els.seed.textContent = data.seed || "";
  document.title = `${t("replay.title")} — ${formatList(names())} — ${t("app.title")}`;
}

/** The speeds in the page's language ("0,5×" in French, where "0.5×" read as English). */
function labelSpeeds() {
  const number = new Intl.NumberFormat(lang());
  for (const option of els.speed.options) option.textContent = `${number.format(1000 / Number(option.value))}×`;
}

function renderAll() {
  renderHead();
  labelSpeeds();
  if (!state.data) return;
  buildMoveList();
  renderPlay();
  show(state.at);
  renderVerdict();
  if (state.analysis) state.analysis.renderSummary();
}

async function load(Ui) {
  if (page.dataset.status !== "finished") {
    page.dataset.state = "live";
    showError(t("replay.not_finished"));
    return;
  }
  try {
    state.data = await replayData();
    state.frames = new PatchedFrames(state.data.start, state.data.patches);
  } catch (err) {
    page.dataset.state = "error";
    showError(err instanceof ApiError && err.status ? err.message : t("replay.load_error"));
    return;
  }
  timings.loaded = performance.now();
  state.ui = createUI(Ui);
  if (!state.ui) {
    page.dataset.state = "error";
    showError(t("game.unsupported"));
    return;
  }
  const wanted = Number.parseInt(new URLSearchParams(location.search).get("at") || "0", 10);
  state.at = Number.isFinite(wanted) ? Math.max(0, Math.min(state.frames.length - 1, wanted)) : 0;
  renderHead();
  renderPlay();
  show(state.at);
  page.dataset.state = "shown";
  // The move list (hundreds of entries) is built once the first frame is painted.
  await afterPaint();
  state.painted = true;
  renderHead();
  buildMoveList();
  highlight(state.at, state.at);
  page.dataset.state = "ready";
  loadAnalysis();
}

/** The marks come after the replay is shown: they never hold up its first frame. */
async function loadAnalysis() {
  const analysis = new ReplayAnalysis(gameId, {
    summary: els.analysis, names, variant: page.dataset.variant, redraw: () => show(state.at),
  });
  state.analysis = analysis;
  if (!(await analysis.load())) {
    page.dataset.analysis = "none";  // settled either way: nothing more will be drawn
    return;
  }
  analysis.markEntries(state.entries, goTo);
  analysis.renderSummary();
  show(state.at);
  page.dataset.analysis = "ready";
}

/**
 * The replay body. The page's head started fetching it while the page was still being
 * parsed (`window.replayFetch`, an answer as `fetchAnswer` gives it); without that, it
 * is fetched now.
 */
async function replayData() {
  const early = window.replayFetch;
  window.replayFetch = null;
  if (early) return answerBody(await early);
  return request("GET", `/api/games/${encodeURIComponent(gameId)}/replay?frames=patches`);
}

/** Resolves once the next frame's paint is done (a message posted from its rAF). */
function afterPaint() {
  return new Promise((resolve) => {
    requestAnimationFrame(() => {
      const channel = new MessageChannel();
      channel.port1.onmessage = () => resolve();
      channel.port2.postMessage(0);
    });
  });
}

/**
 * Start the page with the variant's game UI class (null for a variant this client cannot
 * draw: the page then says so).
 */
export function startReplay(Ui) {
  initI18n();
  ensureSprite();
  renderHead();
  els.first.addEventListener("click", () => goTo(0));
  els.prev.addEventListener("click", () => { stop(); step(-1); });
  els.next.addEventListener("click", () => { stop(); step(1); });
  els.last.addEventListener("click", () => state.data && goTo(state.frames.length - 1));
  els.play.addEventListener("click", () => (playing() ? stop() : play()));
  els.scrub.addEventListener("input", () => goTo(Number(els.scrub.value)));
  els.speed.addEventListener("change", () => {
    if (playing()) {
      stop();
      play();
    }
  });
  els.verify.addEventListener("click", verify);
  els.download.addEventListener("click", download);
  document.addEventListener("keydown", onKey);
  // Space on a focused button would also "click" it on key-up: the key-down did the work.
  document.addEventListener("keyup", (ev) => {
    if (ev.key === " " && ev.target && ev.target.tagName === "BUTTON") ev.preventDefault();
  });
  onLanguageChange(renderAll);
  labelSpeeds();
  load(Ui);
  // The import form is far below: its module comes after the replay.
  import("./importer.js").then((m) => m.setupImport(byId("import-form"), byId("import-file"), byId("import-error")));
}

