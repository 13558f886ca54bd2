/**
 * A room's options in words ("Event variant: on", "Mode: Standard", "Red's spell:
 * Switch"), for the room's header and its seat list; and which options apply given the
 * others (the Team Edition's spells only outside its introductory mode), which the
 * lobby's form follows too.
 */

import { addTranslations, t } from "./i18n.js";

addTranslations({
  en: { "option.dealt": "{value} (dealt at random)", "option.value": "{label}: {value}", "option.on": "on", "option.off": "off", "option.none": "No options", "room.options": "Options" },
  fr: { "option.dealt": "{value} (tiré au hasard)", "option.value": "{label} : {value}", "option.on": "oui", "option.off": "non", "option.none": "Sans option", "room.options": "Options" },
  de: { "option.dealt": "{value} (zufällig)", "option.value": "{label}: {value}", "option.on": "an", "option.off": "aus", "option.none": "Keine Optionen", "room.options": "Optionen" },
});

/** Whether `opt` applies given the option `values` (an option without `when` always does). */
export function applies(opt, values) {
  return !opt.when || opt.when(values || {});
}

/**
 * The options of `variant` set to `values`, each as `{key, text}`: only those that apply,
 * each value in words. With `colors` (the seats' colours once a game is dealt), an option
 * of one colour (a Team seat's spell) is told only when a seat plays that colour. With
 * `dealt` (what a game dealt for options left to chance, by key), a "random" option says
 * what it became: "Red's spell: Teleport (dealt at random)".
 * @param {{options: object[]}} variant
 * @param {Record<string, any>} values
 * @param {Set<string>|null} [colors]
 * @param {Record<string, any>|null} [dealt]
 */
export function optionWords(variant, values, colors = null, dealt = null) {
  const out = [];
  const given = values || {};
  // An option left out has its default, and whether another applies depends on it (a
  // Team room without `mode` is introductory: no spells).
  const effective = {};
  for (const opt of variant.options || []) effective[opt.key] = opt.key in given ? given[opt.key] : opt.default;
  for (const opt of variant.options || []) {
    if (!applies(opt, effective) || (colors && opt.color && !colors.has(opt.color))) continue;
    const value = opt.key in given ? given[opt.key] : opt.default;
    let shown;
    if (opt.type === "boolean") shown = t(value ? "option.on" : "option.off");
    else {
      const choice = (opt.choices || []).find((c) => c.value === value);
      shown = choice ? t(choice.label) : String(value);
      const became = value === "random" && dealt ? (opt.choices || []).find((c) => c.value === dealt[opt.key]) : null;
      if (became) shown = t("option.dealt", { value: t(became.label) });
    }
    out.push({ key: opt.key, text: t("option.value", { label: t(opt.label), value: shown }) });
  }
  return out;
}
