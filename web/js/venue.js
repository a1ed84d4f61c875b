// @ts-check
// The venue's locale (FLOOR_LOCALE on the server, e.g. cs-CZ, en-GB, de-DE): how numbers and
// times are written and how lists of names are sorted, whatever language a screen speaks.
// The server writes it on every page it serves (`<html data-locale>`), so it is known before
// anything is shown.

/** The venue's locale, a BCP 47 tag ("cs-CZ"). */
export const venueLocale = document.documentElement.dataset.locale || "en-GB";

const language = venueLocale.split("-")[0].toLowerCase();
const collator = new Intl.Collator(venueLocale, { sensitivity: "base", numeric: true });
// Letters written with two characters in the venue's alphabet ("Ch" in Czech and Slovak).
/** @type {Record<string, string[]>} */
const DIGRAPHS = { cs: ["ch"], sk: ["ch", "dz", "dž"] };

/** The surname in a name as registered (first names first: the last word).
 * @param {string | null | undefined} name
 */
export function surname(name) {
  const words = String(name || "").trim().split(/\s+/);
  return words[words.length - 1] || "";
}

/** Players (or anything with `name` and `id`) in the venue's order: by surname, then by
 * the whole name, then by id.
 * @param {{ name: string, id: string }} a
 * @param {{ name: string, id: string }} b
 */
export function byName(a, b) {
  return collator.compare(surname(a.name), surname(b.name)) || collator.compare(a.name, b.name)
    || String(a.id).localeCompare(String(b.id));
}

/** The letter a name is listed under in an alphabetical list: its surname's first letter in
 * the venue's alphabet ("Ř", "Š", "Ch" in Czech), its accents dropped where the alphabet
 * has no letter of its own for them ("Á" under "A").
 * @param {string} name
 */
export function letterOf(name) {
  const word = surname(name);
  const lower = word.toLocaleLowerCase(venueLocale);
  const digraph = (DIGRAPHS[language] || []).find((d) => lower.startsWith(d));
  const first = digraph ? word.slice(0, digraph.length) : Array.from(word)[0] || "";
  const letter = first.charAt(0).toLocaleUpperCase(venueLocale) + first.slice(1).toLocaleLowerCase(venueLocale);
  const plain = letter.normalize("NFD").replace(/\p{M}/gu, "");
  return plain !== letter && collator.compare(plain, letter) === 0 ? plain : letter;
}

/** Whether two letters of `letterOf` head the same part of a list.
 * @param {string} a
 * @param {string} b
 */
export function sameLetter(a, b) {
  return collator.compare(a, b) === 0;
}
