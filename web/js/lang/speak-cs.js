// @ts-check
// Čeština: hlášení s titulky a hlasem na stěně a na obrazovkách stolů (speak.js), v jazycích
// hráčů, kterých se týkají; a nastavení hlasu obrazovky.
export const speakCs = {
  "speak.move": "{name}, stůl {table}, místo {seat}: přesuňte se prosím ke stolu {to_table}, místo {to_seat}.",
  "speak.move_open": "{name}, stůl {table}, místo {seat}: přesuňte se prosím ke stolu {to_table}.",
  "speak.table_breaking": "Stůl {table} se ruší. Hráči u stolu {table}: zůstaňte sedět, dokud nedostanete nové místo.",
  "speak.in_the_money": {
    one: "Bublina praskla: platí se {n} místo a každý hráč, který zůstává, je v penězích.",
    few: "Bublina praskla: platí se {n} místa a každý hráč, který zůstává, je v penězích.",
    many: "Bublina praskla: platí se {n} místa a každý hráč, který zůstává, je v penězích.",
    other: "Bublina praskla: platí se {n} míst a každý hráč, který zůstává, je v penězích.",
  },
  "speak.dinner_break": {
    one: "Přestávka na večeři: {n} minuta. Hra pokračuje v {time}.",
    few: "Přestávka na večeři: {n} minuty. Hra pokračuje v {time}.",
    many: "Přestávka na večeři: {n} minuty. Hra pokračuje v {time}.",
    other: "Přestávka na večeři: {n} minut. Hra pokračuje v {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Přestávka na večeři: {n} minuta.",
    few: "Přestávka na večeři: {n} minuty.",
    many: "Přestávka na večeři: {n} minuty.",
    other: "Přestávka na večeři: {n} minut.",
  },
  "speak.caption": "Hlášení pro sál",
  "speak.settings": "Hlášení nahlas",
  "speak.here": "Tato obrazovka mluví",
  "speak.here_hint": "V každé části sálu mluví jedna obrazovka; ostatní ukazují jen titulky.",
  "speak.volume": "Hlasitost",
  "speak.quiet": "Doba klidu (jen titulky)",
  "speak.quiet_from": "Od",
  "speak.quiet_until": "Do",
  "speak.on": "Mluví",
  "speak.off": "Hlas vypnut",
  "speak.quiet_now": "Doba klidu",
  "speak.tap": "Klepněte, aby tato obrazovka mohla mluvit",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Nastaveno pro tuto obrazovku v konzoli ředitele.",
  "speak.voice": "Hlas",
  "speak.voice_screen": "Nastaví se na obrazovce",
  "speak.voice_on": "Mluví",
  "speak.voice_off": "Jen titulky",
  "speak.listed_on": "mluví, hlasitost {volume}",
  "speak.listed_off": "jen titulky",
  "speak.listed_quiet": "klid {from}–{until}",
};
