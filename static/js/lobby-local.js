/**
 * The lobby's "Play on this device" (pass-and-play): the players' names typed at the
 * start, each seat a person or a computer of a chosen level; one click makes the room
 * through the public API as anyone could (create, a join per person, computer seats added
 * as host, start) and opens it holding every person's seat token (local-seats.js).
 */

import { api, saveToken } from "./api.js";
import { byId, fitName, h } from "./dom.js";
import { formatList, t } from "./i18n.js";
import { apiErrorWords } from "./error-words.js";
import { enterRoom } from "./lobby-table.js";
import { saveLocalSeats } from "./local-seats.js";
import "./local-i18n.js";
import { LEVELS, tableApi } from "./table.js";

const els = {
  list: byId("local-players"),
  aside: byId("local-aside"),
  add: byId("local-add"),
  button: byId("local-button"),
  error: byId("local-error"),
};

/** @typedef {{kind: "person"|"easy"|"medium"|"hard", name: string}} Row */

/** @type {Row[]} the seats in order, kept across re-renders */
const rows = [{ kind: "person", name: "" }, { kind: "person", name: "" }];

/** @type {Row[]} seats past the chosen game's most players, set aside (not lost): they
 * come back when a game with room for them is chosen, or with "Add a player" */
const aside = [];

let variant = null;


/** One line per seat: its name (for a person) and who plays it. */
function render() {
  const min = variant ? variant.minPlayers : 2;
  const max = variant ? variant.maxPlayers : 4;
  while (rows.length > max) aside.unshift(rows.pop());
  while (rows.length < min) rows.push(aside.shift() || { kind: "person", name: "" });
  els.list.replaceChildren(...rows.map((row, i) => {
    const n = i + 1;
    const name = h("input", {
      class: "local-name", maxlength: "64", autocomplete: "off", "data-testid": `local-name-${i}`,
      placeholder: t("local.player", { n }), "aria-label": t("local.name", { n }), hidden: row.kind !== "person",
      on: { input: (ev) => { row.name = fitName(ev.target); } },
    });
    name.value = row.name;
    const kind = h("select", {
      class: "local-kind", "data-testid": `local-kind-${i}`, "aria-label": t("local.kind", { n }),
      on: { change: (ev) => { row.kind = ev.target.value; render(); } },
    },
    h("option", { value: "person" }, t("local.person")),
    ...LEVELS.map((lv) => h("option", { value: lv }, t("local.computer", { level: t(`level.${lv}`) }))));
    kind.value = row.kind;
    const remove = rows.length > min ? h("button", {
      type: "button", class: "small local-remove", "data-testid": `local-remove-${i}`,
      title: t("local.remove_named", { n }), "aria-label": t("local.remove_named", { n }),
      on: { click: () => { rows.splice(i, 1); render(); } },
    }, "×") : null;
    return h("li", { class: "local-player", "data-testid": `local-player-${i}`, "data-kind": row.kind },
      row.kind === "person" ? name : h("span", { class: "local-computer muted" }, t("local.computer", { level: t(`level.${row.kind}`) })),
      kind, remove);
  }));
  els.add.disabled = rows.length >= max;
  renderAside(max);
}

/** Says who was set aside: switching to a game for fewer players took them off the list. */
function renderAside(max) {
  const note = els.aside;
  note.hidden = !aside.length;
  // The rows set aside are the list's last, in order: an unnamed one is called by the
  // number its field showed ("Player 6"), not "?".
  const names = aside.map((row, k) => (row.kind === "person"
    ? row.name.trim() || t("local.player", { n: max + 1 + k })
    : t("local.computer", { level: t(`level.${row.kind}`) })));
  note.textContent = aside.length ? t("local.aside", { max, names: formatList(names) }) : "";
}

/**
 * What is wrong with the seats typed: its words and the row to fix (the one named, so the
 * focus goes where the message points), or null when nothing is.
 * @returns {{text: string, row: number|null}|null}
 */
function problem() {
  const people = rows.filter((r) => r.kind === "person");
  if (!people.length) return { text: t("local.need_person"), row: null };
  const seen = new Set();
  for (const [i, row] of rows.entries()) {
    if (row.kind !== "person") continue;
    const name = row.name.trim();
    if (!name) return { text: t("local.name_missing", { n: i + 1 }), row: i };
    const key = name.normalize("NFKC").toLowerCase();
    if (seen.has(key)) return { text: t("local.name_twice", { name }), row: i };
    seen.add(key);
  }
  return null;
}

async function start(getChoice, getClock) {
  els.error.textContent = "";
  const wrong = problem();
  if (wrong) {
    els.error.textContent = wrong.text;
    if (wrong.row !== null) els.list.querySelector(`[data-testid=local-name-${wrong.row}]`).focus();
    return;
  }
  const { variant: chosen, options } = getChoice();
  els.button.disabled = true;
  els.button.textContent = t("lobby.starting");
  try {
    const room = await tableApi.create(chosen.id, options, { clock: getClock() });
    const people = [];
    for (const row of rows) {
      if (row.kind === "person") {
        // The first person's seat is the host's: "Play again" and the host's controls work.
        const name = row.name.trim();
        const seat = await tableApi.join(room.code, name, people.length === 0 ? room.host_token : null);
        people.push({ seat: seat.seat, token: seat.token, name });
      } else {
        await tableApi.addComputer(room.code, room.host_token, row.kind);
      }
    }
    await api.start(room.code, room.host_token);
    // One person against computers is an ordinary seat; two or more share the device.
    if (people.length === 1) saveToken(room.code, people[0].token);
    else saveLocalSeats(room.code, people);
    try {
      localStorage.setItem("labyrinth:name", people[0].name);
    } catch {
      /* not remembered */
    }
    enterRoom({ code: room.code, url: room.url, host_token: room.host_token });
  } catch (err) {
    els.error.textContent = apiErrorWords(err);
    els.button.disabled = false;
    els.button.textContent = t("local.start");
  }
}

/**
 * Wire "Play on this device". `getChoice()` gives the form's variant and options,
 * `getClock()` its turn timer.
 * @param {() => {variant: any, options: object}} getChoice
 * @param {() => object|null} getClock
 */
export function setupLocalPlay(getChoice, getClock) {
  try {
    rows[0].name = localStorage.getItem("labyrinth:name") || "";
  } catch {
    rows[0].name = "";
  }
  variant = getChoice().variant;
  render();
  els.add.addEventListener("click", () => {
    rows.push(aside.shift() || { kind: "person", name: "" });
    render();
    const inputs = els.list.querySelectorAll(".local-name");
    if (inputs.length) inputs[inputs.length - 1].focus();
  });
  els.button.addEventListener("click", () => start(getChoice, getClock));
  return {
    /** The variant or the language changed. */
    render() {
      variant = getChoice().variant;
      // a game with room for the seats set aside takes them back
      while (aside.length && rows.length < variant.maxPlayers) rows.push(aside.shift());
      render();
    },
  };
}
