/**
 * The lobby's table features: "Play against the computer" (one click creates a room with
 * the chosen game, options and opponents, and starts it), the "Open table" choice of the
 * create form, and the "Open tables" list.
 */

import { saveToken } from "./api.js";
import { byId, h, limitName } from "./dom.js";
import { formatList, t } from "./i18n.js";
import { apiErrorWords } from "./error-words.js";
import { LEVELS, optionsText, saveHostToken, shownName, tableApi } from "./table.js";
import { variantById } from "./variants.js";

const els = {
  listed: byId("listed"),
  // The create form's name, the one name field of the page: "Play against the computer"
  // seats its player under it too.
  name: limitName(/** @type {HTMLInputElement} */ (byId("create-name"))),
  count: byId("vs-count"),
  level: byId("vs-level"),
  button: byId("vs-button"),
  error: byId("vs-error"),
  open: byId("open-tables"),
  openEmpty: byId("open-empty"),
};

let tables = null;
let tablesError = false;

/** Whether the room being created is an open table. */
export function listedChosen() {
  return els.listed.checked;
}

/** Where a new room goes: its page, with the host key kept for it. */
export function enterRoom(res) {
  if (res.host_token) saveHostToken(res.code, res.host_token);
  if (res.token) saveToken(res.code, res.token);
  location.assign(res.url || `/r/${encodeURIComponent(res.code)}`);
}


/** Opponent counts and levels for the variant chosen in the form. */
function renderVsControls(variant) {
  const count = els.count.value || "1";
  els.count.replaceChildren();
  for (let n = 1; n < variant.maxPlayers; n++) els.count.append(h("option", { value: String(n) }, t("lobby.opponents.n", { n })));
  els.count.value = Number(count) < variant.maxPlayers ? count : "1";
  const level = els.level.value || "medium";
  els.level.replaceChildren(...LEVELS.map((lv) => h("option", { value: lv }, t(`level.${lv}`))));
  els.level.value = level;
}

async function playVsComputer(getChoice) {
  els.error.textContent = "";
  const name = els.name.value.trim();
  if (!name) {
    // spaces only are not "no name yet": said so
    els.error.textContent = t(els.name.value ? "error.name.blank" : "lobby.create_name.missing");
    els.name.focus();
    return;
  }
  const { variant, options } = getChoice();
  const computers = Array.from({ length: Number(els.count.value) || 1 }, () => els.level.value);
  els.button.disabled = true;
  els.button.textContent = t("lobby.starting");
  try {
    localStorage.setItem("labyrinth:name", name);
  } catch {
    /* not remembered */
  }
  try {
    enterRoom(await tableApi.create(variant.id, options, { name, computers, start: true }));
  } catch (err) {
    els.error.textContent = apiErrorWords(err);
    els.button.disabled = false;
    els.button.textContent = t(els.button.dataset.i18n || "lobby.vs_computer");  // its words for this game (Team: "with")
  }
}

function renderOpenTables() {
  els.open.replaceChildren();
  for (const room of tables || []) {
    const variant = variantById(room.variant);
    els.open.append(h("li", { class: "game-item", "data-testid": "open-table" },
      h("div", { class: "game-main" },
        h("span", { class: "game-players" }, formatList((room.players || []).map(shownName))),
        h("span", { class: "game-meta" },
          variant ? t(variant.label) : room.variant, " · ", optionsText(variant, room.options), " · ",
          h("span", { "data-testid": "seats-free" }, t("lobby.seats_free", { n: room.seats_free })))),
      h("a", { class: "button", href: room.url }, t("lobby.join"))));
  }
  const empty = !tables || tables.length === 0;
  els.openEmpty.hidden = !empty;
  els.openEmpty.textContent = tablesError ? t("lobby.load_error") : tables === null ? t("lobby.loading") : t("lobby.none_open");
}

export async function loadOpenTables() {
  try {
    tables = (await tableApi.openTables()).rooms || [];
    tablesError = false;
  } catch {
    tablesError = true;
  }
  renderOpenTables();
}

/**
 * Wire the lobby's table parts. `getChoice()` gives the form's variant and options.
 * @param {() => {variant: any, options: object}} getChoice
 */
export function setupLobbyTable(getChoice) {
  try {
    els.name.value = localStorage.getItem("labyrinth:name") || "";
  } catch {
    els.name.value = "";
  }
  renderVsControls(getChoice().variant);
  els.button.addEventListener("click", () => playVsComputer(getChoice));
  return {
    /** The variant or the language changed. */
    render() {
      renderVsControls(getChoice().variant);
      renderOpenTables();
    },
  };
}
