// @ts-check
// English: the digital seat card on the player's phone (seatcard.js) and its scan at the
// table (seatcard_scan.js).

export const seatcardEn = {
  "seatcard.show": "Show my seat card",
  "seatcard.hide": "Hide my seat card",
  "seatcard.loading": "Loading the seat card…",
  "seatcard.none": "No seat card while you have no seat.",
  "seatcard.error": "The seat card could not be loaded: {error}",
  "seatcard.label": "Seat card of {name}: table {table}, seat {seat}",
  "seatcard.where": "Table {table} · Seat {seat}",
  "seatcard.hint": "Show this code and your ID to the dealer. It is good for one scan; after a move a new card appears here.",
  "seatcard.scan": "Scan a seat card",
  "seatcard.again": "Scan another card",
  "seatcard.starting": "Opening the camera…",
  "seatcard.scanning": "Hold the player's seat card up to the camera.",
  "seatcard.stop": "Close the camera",
  "seatcard.close": "Done",
  "seatcard.no_camera": "The camera could not be opened: allow it for this page, or check the player's ID by hand.",
  "seatcard.ok": "Seat card valid: table {table}, seat {seat}",
  "seatcard.document": "{type} ending {last}",
  "seatcard.no_document": "No document on file",
  "seatcard.compare": "Compare the name and the document with the player's ID.",
  "seatcard.used": "Scanned before, at {time}: a seat card is good for one scan.",
  "seatcard.by_hand": "Check the player's ID by hand, or call the floor.",
  "seatcard.other_table": "This card is for table {table}, seat {seat}: the player moves there with their stack.",
  "seatcard.void": "This card is void: the seat it names is no longer this player's.",
  "seatcard.sits_now": "The player's seat now: table {table}, seat {seat}.",
  "seatcard.no_seat_now": "The player has no seat now.",
};
