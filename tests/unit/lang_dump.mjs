// Prints every text file of web/js/lang as JSON, for tests/unit/test_translations.py: the
// files are imported as the browser imports them (push-*.js set a global), so the test reads
// what a screen reads. Also prints, per language, the plural categories Intl.PluralRules
// gives the whole numbers a screen counts (0 to 10,000): the forms each plural text needs; and
// every category the language has at all (French "many" is for millions): no other form is read.
import { readdirSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { join } from "node:path";

const dir = process.argv[2];
const files = {};
for (const name of readdirSync(dir).filter((n) => n.endsWith(".js")).sort()) {
  const mod = await import(pathToFileURL(join(dir, name)).href);
  const code = name.replace(/\.js$/, "").replace(/^(paper|rulings|table|flights|dealers|forecast|errors|push)-/, "");
  files[name] = name.startsWith("push-") ? globalThis.floorPushTexts[code] : Object.values(mod)[0];
}
const plurals = {};
const categories = {};
for (const code of process.argv.slice(3)) {
  const rules = new Intl.PluralRules(code === "pt-br" ? "pt-BR" : code);
  const seen = new Set(["other"]);
  for (let n = 0; n <= 10000; n++) seen.add(rules.select(n));
  plurals[code] = [...seen].sort();
  categories[code] = [...rules.resolvedOptions().pluralCategories].sort();
}
process.stdout.write(JSON.stringify({ files, plurals, categories }));
