// @ts-check
// Čeština: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardCs = {
  "seatcard.show": "Ukázat moji kartu místa",
  "seatcard.hide": "Skrýt moji kartu místa",
  "seatcard.loading": "Načítám kartu místa…",
  "seatcard.none": "Bez místa není karta místa.",
  "seatcard.error": "Kartu místa se nepodařilo načíst: {error}",
  "seatcard.label": "Karta místa hráče {name}: stůl {table}, místo {seat}",
  "seatcard.where": "Stůl {table} · Místo {seat}",
  "seatcard.hint": "Ukažte tento kód a svůj doklad dealerovi. Platí pro jedno načtení; po přesunu se tu objeví nová karta.",
  "seatcard.scan": "Načíst kartu místa",
  "seatcard.again": "Načíst další kartu",
  "seatcard.starting": "Otevírám kameru…",
  "seatcard.scanning": "Podržte kartu místa hráče před kamerou.",
  "seatcard.stop": "Zavřít kameru",
  "seatcard.close": "Hotovo",
  "seatcard.no_camera": "Kameru se nepodařilo otevřít: povolte ji této stránce, nebo zkontrolujte doklad hráče ručně.",
  "seatcard.ok": "Karta místa platí: stůl {table}, místo {seat}",
  "seatcard.document": "{type} končící {last}",
  "seatcard.no_document": "Žádný doklad v záznamu",
  "seatcard.compare": "Porovnejte jméno a doklad s průkazem hráče.",
  "seatcard.used": "Už načtena v {time}: karta místa platí pro jedno načtení.",
  "seatcard.by_hand": "Zkontrolujte doklad hráče ručně, nebo zavolejte floor.",
  "seatcard.other_table": "Tato karta je pro stůl {table}, místo {seat}: hráč se tam přesune se svým stackem.",
  "seatcard.void": "Tato karta je neplatná: místo na ní už není tohoto hráče.",
  "seatcard.sits_now": "Místo hráče teď: stůl {table}, místo {seat}.",
  "seatcard.no_seat_now": "Hráč teď nemá žádné místo.",
};
