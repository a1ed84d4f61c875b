// Deutsch: Benachrichtigungen (die Meldungen des Service Workers, web/sw.js), ihr Einschalten auf
// dem Spielerbildschirm und dem Floor-Telefon (push.js), die Bereiche des Turnierleiters
// (sections.js).
//
// Zweifach gelesen: von i18n.js als Modul und vom Service Worker per importScripts (ein
// klassisches Skript), darum exportiert es nichts und legt seine Texte auf das globale Objekt.

// @ts-check
/** @type {any} */ (globalThis).floorPushTexts ||= {};
/** @type {any} */ (globalThis).floorPushTexts.de = {
  "push.move_called.title": "Dein Platz: Tisch {table}, Platz {seat}",
  "push.move_called.body": "{name}: Der Floor ruft deinen Wechsel auf. Bring deine Chips an Tisch {table}, Platz {seat}.",
  "push.move_called_again.title": "Neuer Platz: Tisch {table}, Platz {seat}",
  "push.move_called_again.body": "{name}: Dein Wechsel wurde erneut aufgerufen, auf einen anderen Platz: Tisch {table}, Platz {seat}.",
  "push.table_breaking.title": "Dein Tisch {table} wird aufgelöst",
  "push.table_breaking.body": "{name}: Bleib sitzen, bis der Floor deinen neuen Platz aufruft.",
  "push.bag_time.title": "Pack deine Chips ein",
  "push.bag_time.body": "{name}: Der Tag ist vorbei. Bag & Tag deiner Chips an Tisch {table}.",
  "push.payout_ready.title": "Deine Auszahlung ist bereit",
  "push.payout_ready.body": "{name}: Platz {place}, {prize}. Hol sie an der Kasse ab.",
  "push.in_the_money.title": "Du bist im Geld",
  "push.in_the_money.body": {
    "one": "{name}: Die Bubble ist geplatzt. {n} Platz wird bezahlt, und du bist dabei.",
    "other": "{name}: Die Bubble ist geplatzt. {n} Plätze werden bezahlt, und du bist dabei.",
  },
  "push.seat_ready.title": "Dein Platz ist bereit",
  "push.seat_ready.body": "{name}: Ein Platz ist für dich bereit an Tisch {table}, Platz {seat}.",
  "push.staff.time_called.title": "Time-Call: Tisch {table}",
  "push.staff.time_called.body": "Platz {seat} an Tisch {table} hat eine Minute zum Handeln.",
  "push.staff.table_breaking.title": "Tisch {table} auflösen",
  "push.staff.table_breaking.body": "Tisch {table} in deinem Bereich wird aufgelöst: Ruf die neuen Plätze seiner Spieler auf.",

  "push.optin": "Mein Telefon benachrichtigen",
  "push.optin_hint": "Dein Telefon meldet sich, wenn der Floor deinen Wechsel aufruft, wenn dein Tisch aufgelöst wird, beim Bag & Tag und wenn deine Auszahlung bereit ist, auch wenn diese Seite geschlossen ist.",
  "push.on": "Benachrichtigungen sind an",
  "push.stop": "Benachrichtigungen beenden",
  "push.stopped": "Benachrichtigungen sind aus. Diese Seite meldet sich weiterhin, solange sie offen ist.",
  "push.denied": "Benachrichtigungen sind für diese Seite blockiert: Erlaube sie in den Einstellungen des Browsers und versuche es erneut.",
  "push.unsupported": "Dieser Browser kann dich bei geschlossener Seite nicht benachrichtigen: Lass diese Seite für die Meldungen offen.",
  "push.ios": "Auf einem iPhone oder iPad: Füge diese Seite zum Home-Bildschirm hinzu (Teilen, Zum Home-Bildschirm; ab iOS 16.4) und öffne sie von dort, um Benachrichtigungen zu bekommen.",
  "push.no_server": "Der Server dieses Hauses sendet keine Benachrichtigungen ans Telefon: Lass diese Seite für die Meldungen offen.",
  "push.insecure": "Benachrichtigungen brauchen eine sichere Verbindung (https): Lass diese Seite für die Meldungen offen.",
  "push.full": "Fünf Telefone bekommen diese Benachrichtigungen bereits: Beende sie zuerst auf einem davon.",
  "push.too_many": "Zu viele Versuche aus diesem Netz: Versuche es in einer Minute erneut.",
  "push.failed": "Benachrichtigungen konnten nicht eingeschaltet werden: {error}",
  "push.staff_optin": "Benachrichtigungen für meinen Bereich",
  "push.staff_hint_section": "Time-Calls und aufzulösende Tische an den Tischen {tables} erreichen dieses Telefon, auch wenn es gesperrt ist.",
  "push.staff_hint_all": "Dir ist kein Bereich zugeteilt: Time-Calls und Auflösungen an jedem Tisch, den sonst niemand hat, erreichen dieses Telefon.",

  "director.floorsections": "Floor-Bereiche",
  "sections.hint": "Die Tische, um die sich jeder Floor-Mitarbeiter kümmert: Ein Time-Call oder ein aufzulösender Tisch dort meldet sich auf dem Telefon dieses Mitarbeiters.",
  "sections.tables_of": "Tische von {name}",
  "sections.placeholder": "z. B. 1-10, 15",
  "sections.save": "Bereiche speichern",
  "sections.saved": "Bereiche gespeichert",
  "sections.bad": "Schreibe Tischnummern und Bereiche, etwa 1-10, 15 ({name}).",
  "sections.none": "Noch keine Floor-Konten.",
};
