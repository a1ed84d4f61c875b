// @ts-check
// Deutsch: Durchsagen mit Untertiteln und Sprache an der Wand und an den Tischbildschirmen
// (speak.js), in den Sprachen der betroffenen Spieler; und die Spracheinstellung des Bildschirms.
export const speakDe = {
  "speak.move": "{name}, Tisch {table}, Platz {seat}: bitte wechseln Sie an Tisch {to_table}, Platz {to_seat}.",
  "speak.move_open": "{name}, Tisch {table}, Platz {seat}: bitte wechseln Sie an Tisch {to_table}.",
  "speak.table_breaking": "Tisch {table} wird aufgelöst. Spieler an Tisch {table}: bitte bleiben Sie sitzen, bis Sie einen neuen Platz erhalten.",
  "speak.in_the_money": {
    one: "Die Bubble ist geplatzt: {n} Platz wird ausgezahlt, jeder verbliebene Spieler ist im Geld.",
    other: "Die Bubble ist geplatzt: {n} Plätze werden ausgezahlt, jeder verbliebene Spieler ist im Geld.",
  },
  "speak.dinner_break": {
    one: "Dinner-Pause: {n} Minute. Weiter geht es um {time}.",
    other: "Dinner-Pause: {n} Minuten. Weiter geht es um {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Dinner-Pause: {n} Minute.",
    other: "Dinner-Pause: {n} Minuten.",
  },
  "speak.caption": "Durchsage an den Saal",
  "speak.settings": "Gesprochene Durchsagen",
  "speak.here": "Dieser Bildschirm spricht",
  "speak.here_hint": "Ein sprechender Bildschirm pro Bereich; die anderen zeigen nur die Untertitel.",
  "speak.volume": "Lautstärke",
  "speak.quiet": "Ruhezeiten (nur Untertitel)",
  "speak.quiet_from": "Von",
  "speak.quiet_until": "Bis",
  "speak.on": "Spricht",
  "speak.off": "Sprache aus",
  "speak.quiet_now": "Ruhezeit",
  "speak.tap": "Tippen, damit dieser Bildschirm sprechen darf",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Für diesen Bildschirm in der Konsole der Turnierleitung eingestellt.",
  "speak.voice": "Stimme",
  "speak.voice_screen": "Am Bildschirm selbst eingestellt",
  "speak.voice_on": "Spricht",
  "speak.voice_off": "Nur Untertitel",
  "speak.listed_on": "spricht, Lautstärke {volume}",
  "speak.listed_off": "nur Untertitel",
  "speak.listed_quiet": "Ruhe {from}–{until}",
};
