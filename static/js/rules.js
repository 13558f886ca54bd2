/** The rules page: translated blocks, plus the treasure legend and event glyphs drawn from tiles.js. */
import { h } from "./dom.js";
import { initI18n, onLanguageChange, t } from "./i18n.js";
import { ensureSprite, eventIcon, TREASURES, treasureIcon, treasureName } from "./tiles.js";

function treasureList(names) {
  return h("ul", { class: "treasure-grid" },
    ...names.map((name) => h("li", { "data-treasure": name }, treasureIcon(name, 34), h("span", {}, treasureName(name)))));
}

function render() {
  const legend = document.getElementById("treasure-legend");
  if (legend) {
    legend.replaceChildren(
      h("h3", {}, t("rules.objects")), treasureList(TREASURES.slice(0, 12)),
      h("h3", {}, t("rules.creatures")), treasureList(TREASURES.slice(12)));
  }
  for (const slot of document.querySelectorAll(".event-glyph[data-event]")) {
    slot.replaceChildren(eventIcon(slot.dataset.event, 32));
  }
}

initI18n();
ensureSprite();
render();
onLanguageChange(render);
