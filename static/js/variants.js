/**
 * What the client knows of each game variant: its name, player counts, room options
 * (the lobby builds its form from these) and its rules page. Adding a variant here makes
 * it appear in the lobby's form.
 */

/**
 * @typedef {{key: string, type: "boolean"|"choice", default: boolean|string, label: string, help?: string,
 *            choices?: {value: string, label: string}[],
 *            when?: (values: Record<string, any>) => boolean, unique?: string, color?: string}} VariantOption
 *   `when`: the option applies only when it holds for the other options' values
 *   `unique`: options of one group may not hold the same value, but their default (each
 *   spell tile of the Team Edition exists once: two seats never choose the same spell)
 * @typedef {{id: string, label: string, minPlayers: number, maxPlayers: number,
 *            options: VariantOption[], rules?: string}} Variant
 */

/** @type {Variant[]} */
export const VARIANTS = [
  {
    id: "classic",
    label: "variant.classic",
    minPlayers: 2,
    maxPlayers: 4,
    rules: "/rules/classic",
    options: [
      { key: "events", type: "boolean", default: false, label: "option.events", help: "option.events.help" },
      { key: "return_home", type: "boolean", default: true, label: "option.return_home", help: "option.return_home.help" },
    ],
  },
  {
    id: "cards",
    label: "variant.cards",
    minPlayers: 2,
    maxPlayers: 6,
    rules: "/rules/cards",
    options: [],
  },
  {
    id: "master",
    label: "variant.master",
    minPlayers: 2,
    maxPlayers: 4,
    rules: "/rules/master",
    options: [],
  },
  {
    id: "team",
    label: "variant.team",
    minPlayers: 2,
    maxPlayers: 4,
    rules: "/rules/team",
    options: [
      { key: "mode", type: "choice", default: "introductory", label: "option.mode", help: "option.mode.help",
        choices: ["introductory", "standard", "expert"].map((v) => ({ value: v, label: `option.mode.${v}` })) },
      // In the seats' order of colours (the rules since version 2: red, yellow, blue, green).
      ...["red", "yellow", "blue", "green"].map((color) => ({
        key: `spell_${color}`, color, type: "choice", default: "random", label: `option.spell_${color}`, help: "option.spell.help",
        unique: "spell",
        // Introductory mode gives everyone Push and Rotate: the spell choices do not apply.
        when: (values) => values.mode !== "introductory",
        choices: ["random", "rotate", "switch", "traverse", "teleport", "escape"].map((v) => ({ value: v, label: `spell.${v}` })),
      })),
    ],
  },
];

/** Seats take these colours in order (a room without `colors`, from an older server). */
export const COLORS = ["red", "yellow", "green", "blue", "purple", "orange"];

/** @returns {Variant|undefined} */
export function variantById(id) {
  return VARIANTS.find((v) => v.id === id);
}
