/** Pages without their own controller (rules, not found): translate and wire the language menu. */
import { initI18n } from "./i18n.js";

initI18n();
