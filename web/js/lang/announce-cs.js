// @ts-check
// Čeština: vzkazy ředitele turnaje sálu (announce_console.js, announce_screens.js).
export const announceCs = {
  "director.announce": "Oznámení",
  "announce.title": "Oznámení",
  "announce.line": "Vzkaz ředitele turnaje",
  "announce.text": "Vzkaz",
  "announce.text_hint": "Zobrazí se na stěně a na obrazovkách hráčů tak, jak je napsán, nejvýš 280 znaků.",
  "announce.as_line": "Zobrazit jako řádek",
  "announce.as_screen": "Zobrazit přes celou obrazovku",
  "announce.clear": "Smazat vzkaz",
  "announce.shown_line": "Teď se zobrazuje jako řádek:",
  "announce.shown_screen": "Teď se zobrazuje přes celou obrazovku:",
  "announce.none": "Žádný vzkaz se nezobrazuje.",
  "announce.sent_line": "Vzkaz zobrazen",
  "announce.sent_screen": "Oznámení zobrazeno",
  "announce.cleared": "Vzkaz smazán",
};
