/**
 * What the client knows of each game variant: its name, player counts, room options
 * (the lobby builds its form from these) and its rules page. Adding a variant here makes
 * it appear in the lobby's form.
 */

/**
 * @typedef {{key: string, type: "boolean", default: boolean, label: string, help?: string}} VariantOption
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
];

/** Seats take these colours in order. */
export const COLORS = ["red", "yellow", "green", "blue"];

/** @returns {Variant|undefined} */
export function variantById(id) {
  return VARIANTS.find((v) => v.id === id);
}
