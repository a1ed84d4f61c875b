// Čeština: upozornění (oznámení service workeru, web/sw.js) a jejich zapnutí na obrazovce
// hráče a telefonu floora (push.js), sekce ředitele (sections.js).
//
// Čte se dvakrát: i18n.js ho importuje jako modul a service worker přes importScripts
// (klasický skript), proto nic neexportuje a texty dává na globální objekt.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.cs = {
  "push.move_called.title": "Vaše místo: stůl {table}, místo {seat}",
  "push.move_called.body": "{name}: floor vás volá k přesunu. Vezměte žetony ke stolu {table}, místo {seat}.",
  "push.move_called_again.title": "Nové místo: stůl {table}, místo {seat}",
  "push.move_called_again.body": "{name}: váš přesun byl zavolán znovu, na jiné místo: stůl {table}, místo {seat}.",
  "push.table_breaking.title": "Váš stůl {table} se ruší",
  "push.table_breaking.body": "{name}: zůstaňte sedět, dokud vám floor nezavolá nové místo.",
  "push.bag_time.title": "Zabalte žetony",
  "push.bag_time.body": "{name}: den skončil. Zabalte a označte své žetony u stolu {table}.",
  "push.payout_ready.title": "Vaše výhra je připravena",
  "push.payout_ready.body": "{name}: {place}. místo, {prize}. Vyzvedněte si ji na pokladně.",
  "push.in_the_money.title": "Jste v penězích",
  "push.in_the_money.body": {
    "one": "{name}: bublina praskla. Platí se {n} místo a vy jste na něm.",
    "few": "{name}: bublina praskla. Platí se {n} místa a vy jste mezi nimi.",
    "many": "{name}: bublina praskla. Platí se {n} místa a vy jste mezi nimi.",
    "other": "{name}: bublina praskla. Platí se {n} míst a vy jste mezi nimi.",
  },
  "push.seat_ready.title": "Vaše místo je připraveno",
  "push.seat_ready.body": "{name}: čeká na vás místo u stolu {table}, místo {seat}.",
  "push.staff.time_called.title": "Čas zavolán: stůl {table}",
  "push.staff.time_called.body": "Místo {seat} u stolu {table} má minutu na rozhodnutí.",
  "push.staff.table_breaking.title": "Zrušit stůl {table}",
  "push.staff.table_breaking.body": "Stůl {table} ve vaší sekci se ruší: zavolejte jeho hráčům nová místa.",

  "push.optin": "Upozorňovat můj telefon",
  "push.optin_hint": "Telefon zavibruje, když vás floor zavolá k přesunu, když se váš stůl ruší, při balení žetonů a když je připravena vaše výhra, i se zavřenou stránkou.",
  "push.on": "Upozornění v telefonu jsou zapnutá",
  "push.stop": "Vypnout upozornění",
  "push.stopped": "Upozornění v telefonu jsou vypnutá. Otevřená stránka vás upozorní i tak.",
  "push.denied": "Oznámení jsou pro tento web zablokovaná: povolte je v nastavení prohlížeče a zkuste to znovu.",
  "push.unsupported": "Tento prohlížeč neumí upozornit se zavřenou stránkou: nechte ji otevřenou.",
  "push.ios": "Na iPhonu nebo iPadu: přidejte si tuto stránku na plochu (Sdílet, Přidat na plochu; iOS 16.4 nebo novější) a otevírejte ji odtud.",
  "push.no_server": "Server tohoto podniku neposílá upozornění do telefonů: nechte stránku otevřenou.",
  "push.insecure": "Upozornění v telefonu potřebují zabezpečené spojení (https): nechte stránku otevřenou.",
  "push.full": "Tato upozornění už dostává pět telefonů: na jednom z nich je nejdřív vypněte.",
  "push.too_many": "Z této sítě přišlo příliš mnoho pokusů: zkuste to za minutu.",
  "push.failed": "Upozornění se nepodařilo zapnout: {error}",
  "push.staff_optin": "Upozornění pro mou sekci",
  "push.staff_hint_section": "Zavolaný čas a rušené stoly u stolů {tables} přijdou do tohoto telefonu, i zamčeného.",
  "push.staff_hint_all": "Nemáte nastavenou sekci: zavolaný čas a rušení u všech stolů, které nemá nikdo jiný, přijdou do tohoto telefonu.",

  "director.floorsections": "Sekce floorů",
  "sections.hint": "Stoly, o které se stará každý floor: zavolaný čas nebo rušení stolu tam upozorní jeho telefon.",
  "sections.tables_of": "Stoly: {name}",
  "sections.placeholder": "např. 1-10, 15",
  "sections.save": "Uložit sekce",
  "sections.saved": "Sekce uloženy",
  "sections.bad": "Napište čísla stolů a rozsahy, např. 1-10, 15 ({name}).",
  "sections.none": "Zatím žádné účty floor.",
};
