// Italiano: notifiche (gli avvisi del service worker, web/sw.js) e la loro attivazione sullo
// schermo dei giocatori e sul telefono del floor (push.js), le sezioni del direttore (sections.js).
//
// Letto in due modi: i18n.js lo importa come modulo e il service worker con importScripts
// (script classico), quindi non esporta nulla e mette i testi sull'oggetto globale.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.it = {
  "push.move_called.title": "Il tuo posto: tavolo {table}, posto {seat}",
  "push.move_called.body": "{name}: il floor chiama il tuo spostamento. Porta le fiche al tavolo {table}, posto {seat}.",
  "push.move_called_again.title": "Nuovo posto: tavolo {table}, posto {seat}",
  "push.move_called_again.body": "{name}: il tuo spostamento è stato richiamato, verso un altro posto: tavolo {table}, posto {seat}.",
  "push.table_breaking.title": "Il tuo tavolo {table} si rompe",
  "push.table_breaking.body": "{name}: resta seduto finché il floor non chiama il tuo nuovo posto.",
  "push.bag_time.title": "Imbusta le tue fiche",
  "push.bag_time.body": "{name}: la giornata è finita. Imbusta e segna le tue fiche al tavolo {table}.",
  "push.payout_ready.title": "Il tuo premio è pronto",
  "push.payout_ready.body": "{name}: posizione {place}, {prize}. Ritiralo alla cassa.",
  "push.in_the_money.title": "Sei a premio",
  "push.in_the_money.body": {
    "one": "{name}: la bolla è scoppiata. {n} posizione è a premio, ed è la tua.",
    "many": "{name}: la bolla è scoppiata. {n} posizioni sono a premio, e tu ci sei.",
    "other": "{name}: la bolla è scoppiata. {n} posizioni sono a premio, e tu ci sei.",
  },
  "push.seat_ready.title": "Il tuo posto è pronto",
  "push.seat_ready.body": "{name}: c'è un posto pronto per te al tavolo {table}, posto {seat}.",
  "push.staff.time_called.title": "Tempo chiamato: tavolo {table}",
  "push.staff.time_called.body": "Il posto {seat} al tavolo {table} ha un minuto per agire.",
  "push.staff.table_breaking.title": "Rompi il tavolo {table}",
  "push.staff.table_breaking.body": "Il tavolo {table} della tua sezione si rompe: chiama i nuovi posti dei suoi giocatori.",

  "push.optin": "Avvisa il mio telefono",
  "push.optin_hint": "Il telefono vibra quando il floor chiama il tuo spostamento, quando il tuo tavolo si rompe, all'imbustamento e quando il tuo premio è pronto, anche con questa pagina chiusa.",
  "push.on": "Gli avvisi sul telefono sono attivi",
  "push.stop": "Ferma gli avvisi",
  "push.stopped": "Gli avvisi sul telefono sono disattivati. Questa pagina ti avvisa comunque finché è aperta.",
  "push.denied": "Le notifiche sono bloccate per questo sito: consentile nelle impostazioni del browser, poi riprova.",
  "push.unsupported": "Questo browser non può avvisarti con la pagina chiusa: tieni aperta questa pagina per gli avvisi.",
  "push.ios": "Su iPhone o iPad: aggiungi questa pagina alla schermata Home (Condividi, Aggiungi alla schermata Home; iOS 16.4 o successivo) e aprila da lì per ricevere gli avvisi.",
  "push.no_server": "Il server di questa sala non invia avvisi ai telefoni: tieni aperta questa pagina per gli avvisi.",
  "push.insecure": "Gli avvisi sul telefono richiedono una connessione sicura (https): tieni aperta questa pagina per gli avvisi.",
  "push.full": "Cinque telefoni ricevono già questi avvisi: prima fermali su uno di essi.",
  "push.too_many": "Troppi tentativi da questa rete: riprova tra un minuto.",
  "push.failed": "Non è stato possibile attivare gli avvisi: {error}",
  "push.staff_optin": "Avvisi per la mia sezione",
  "push.staff_hint_section": "Le chiamate del tempo e i tavoli da rompere ai tavoli {tables} arrivano su questo telefono, anche bloccato.",
  "push.staff_hint_all": "Non hai una sezione: le chiamate del tempo e le rotture a ogni tavolo che non ha nessun altro arrivano su questo telefono.",

  "director.floorsections": "Sezioni del floor",
  "sections.hint": "I tavoli di cui si occupa ogni floor: una chiamata del tempo o un tavolo da rompere lì avvisa il telefono di quel floor.",
  "sections.tables_of": "Tavoli di {name}",
  "sections.placeholder": "es. 1-10, 15",
  "sections.save": "Salva le sezioni",
  "sections.saved": "Sezioni salvate",
  "sections.bad": "Scrivete numeri di tavolo e intervalli, come 1-10, 15 ({name}).",
  "sections.none": "Ancora nessun account floor.",
};
