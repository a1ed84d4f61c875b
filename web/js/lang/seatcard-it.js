// @ts-check
// Italiano: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardIt = {
  "seatcard.show": "Mostra la mia carta del posto",
  "seatcard.hide": "Nascondi la mia carta del posto",
  "seatcard.loading": "Caricamento della carta del posto…",
  "seatcard.none": "Senza posto non c'è carta del posto.",
  "seatcard.error": "Impossibile caricare la carta del posto: {error}",
  "seatcard.label": "Carta del posto di {name}: tavolo {table}, posto {seat}",
  "seatcard.where": "Tavolo {table} · Posto {seat}",
  "seatcard.hint": "Mostra questo codice e il tuo documento al dealer. Vale per una sola scansione; dopo un cambio di posto qui compare una nuova carta.",
  "seatcard.scan": "Scansiona una carta del posto",
  "seatcard.again": "Scansiona un'altra carta del posto",
  "seatcard.starting": "Apertura della fotocamera…",
  "seatcard.scanning": "Avvicina la carta del posto del giocatore alla fotocamera.",
  "seatcard.stop": "Chiudi la fotocamera",
  "seatcard.close": "Fatto",
  "seatcard.no_camera": "Impossibile aprire la fotocamera: consentila per questa pagina, o controlla a mano il documento del giocatore.",
  "seatcard.ok": "Carta del posto valida: tavolo {table}, posto {seat}",
  "seatcard.document": "{type} che termina con {last}",
  "seatcard.no_document": "Nessun documento registrato",
  "seatcard.compare": "Confronta il nome e il documento con il documento d'identità del giocatore.",
  "seatcard.used": "Già scansionata alle {time}: una carta del posto vale per una sola scansione.",
  "seatcard.by_hand": "Controlla a mano il documento del giocatore, o chiama il floor.",
  "seatcard.other_table": "Questa carta è per il tavolo {table}, posto {seat}: il giocatore si sposta lì con il suo stack.",
  "seatcard.void": "Questa carta non è valida: il posto che indica non è più di questo giocatore.",
  "seatcard.sits_now": "Posto del giocatore ora: tavolo {table}, posto {seat}.",
  "seatcard.no_seat_now": "Il giocatore ora non ha un posto.",
};
