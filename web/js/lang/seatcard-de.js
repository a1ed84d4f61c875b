// @ts-check
// Deutsch: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardDe = {
  "seatcard.show": "Meine Platzkarte zeigen",
  "seatcard.hide": "Meine Platzkarte ausblenden",
  "seatcard.loading": "Platzkarte wird geladen…",
  "seatcard.none": "Ohne Platz keine Platzkarte.",
  "seatcard.error": "Die Platzkarte konnte nicht geladen werden: {error}",
  "seatcard.label": "Platzkarte von {name}: Tisch {table}, Platz {seat}",
  "seatcard.where": "Tisch {table} · Platz {seat}",
  "seatcard.hint": "Zeigen Sie diesen Code und Ihren Ausweis dem Dealer. Er gilt für einen Scan; nach einem Platzwechsel erscheint hier eine neue Karte.",
  "seatcard.scan": "Platzkarte scannen",
  "seatcard.again": "Weitere Platzkarte scannen",
  "seatcard.starting": "Kamera wird geöffnet…",
  "seatcard.scanning": "Halten Sie die Platzkarte des Spielers vor die Kamera.",
  "seatcard.stop": "Kamera schließen",
  "seatcard.close": "Fertig",
  "seatcard.no_camera": "Die Kamera konnte nicht geöffnet werden: erlauben Sie sie für diese Seite oder prüfen Sie den Ausweis des Spielers von Hand.",
  "seatcard.ok": "Platzkarte gültig: Tisch {table}, Platz {seat}",
  "seatcard.document": "{type}, endet auf {last}",
  "seatcard.no_document": "Kein Dokument hinterlegt",
  "seatcard.compare": "Vergleichen Sie Namen und Dokument mit dem Ausweis des Spielers.",
  "seatcard.used": "Schon um {time} gescannt: eine Platzkarte gilt für einen Scan.",
  "seatcard.by_hand": "Prüfen Sie den Ausweis des Spielers von Hand oder rufen Sie den Floor.",
  "seatcard.other_table": "Diese Karte gilt für Tisch {table}, Platz {seat}: der Spieler wechselt mit seinem Stack dorthin.",
  "seatcard.void": "Diese Karte ist ungültig: der Platz darauf gehört nicht mehr diesem Spieler.",
  "seatcard.sits_now": "Platz des Spielers jetzt: Tisch {table}, Platz {seat}.",
  "seatcard.no_seat_now": "Der Spieler hat jetzt keinen Platz.",
};
