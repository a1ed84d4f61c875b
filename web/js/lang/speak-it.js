// @ts-check
// Italiano: annunci sottotitolati e parlati sul muro e sugli schermi dei tavoli (speak.js), nelle
// lingue dei giocatori che riguardano; e l'impostazione della voce dello schermo.
export const speakIt = {
  "speak.move": "{name}, tavolo {table}, posto {seat}: si sposti al tavolo {to_table}, posto {to_seat}.",
  "speak.move_open": "{name}, tavolo {table}, posto {seat}: si sposti al tavolo {to_table}.",
  "speak.table_breaking": "Il tavolo {table} viene chiuso. Giocatori del tavolo {table}: restate seduti finché non vi viene dato un nuovo posto.",
  "speak.in_the_money": {
    one: "La bolla è scoppiata: viene pagato {n} posto e ogni giocatore rimasto è a premio.",
    other: "La bolla è scoppiata: vengono pagati {n} posti e ogni giocatore rimasto è a premio.",
  },
  "speak.dinner_break": {
    one: "Pausa cena: {n} minuto. Il gioco riprende alle {time}.",
    other: "Pausa cena: {n} minuti. Il gioco riprende alle {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Pausa cena: {n} minuto.",
    other: "Pausa cena: {n} minuti.",
  },
  "speak.caption": "Annuncio alla sala",
  "speak.settings": "Annunci parlati",
  "speak.here": "Questo schermo parla",
  "speak.here_hint": "Uno schermo che parla per zona; gli altri mostrano solo i sottotitoli.",
  "speak.volume": "Volume audio",
  "speak.quiet": "Ore di silenzio (solo sottotitoli)",
  "speak.quiet_from": "Dalle",
  "speak.quiet_until": "Alle",
  "speak.on": "Parla",
  "speak.off": "Voce spenta",
  "speak.quiet_now": "Ore di silenzio",
  "speak.tap": "Tocca perché questo schermo possa parlare",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Impostato per questo schermo sulla console del direttore.",
  "speak.voice": "Voce",
  "speak.voice_screen": "Impostata sullo schermo stesso",
  "speak.voice_on": "Parla",
  "speak.voice_off": "Solo sottotitoli",
  "speak.listed_on": "parla, volume audio {volume}",
  "speak.listed_off": "solo sottotitoli",
  "speak.listed_quiet": "silenzio {from}–{until}",
};
