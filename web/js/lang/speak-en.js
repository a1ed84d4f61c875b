// @ts-check
// English: announcements captioned and spoken on the wall and the table screens (speak.js),
// said in the languages of the players they concern; and the screen's speech set-up.
export const speakEn = {
  "speak.move": "{name}, table {table}, seat {seat}: please move to table {to_table}, seat {to_seat}.",
  "speak.move_open": "{name}, table {table}, seat {seat}: please move to table {to_table}.",
  "speak.table_breaking": "Table {table} is breaking. Players at table {table}: stay seated until you are given a new seat.",
  "speak.in_the_money": {
    one: "The bubble has burst: {n} place is paid, and every player left is in the money.",
    other: "The bubble has burst: {n} places are paid, and every player left is in the money.",
  },
  "speak.dinner_break": {
    one: "Dinner break: {n} minute. Play resumes at {time}.",
    other: "Dinner break: {n} minutes. Play resumes at {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Dinner break: {n} minute.",
    other: "Dinner break: {n} minutes.",
  },
  "speak.caption": "Announcement to the room",
  "speak.settings": "Spoken announcements",
  "speak.here": "This screen speaks",
  "speak.here_hint": "One speaking screen per area; the others show the captions only.",
  "speak.volume": "Volume",
  "speak.quiet": "Quiet hours (captions only)",
  "speak.quiet_from": "From",
  "speak.quiet_until": "Until",
  "speak.on": "Speaking",
  "speak.off": "Speech off",
  "speak.quiet_now": "Quiet hours",
  "speak.tap": "Tap to let this screen speak",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Set for this screen on the director's console.",
  "speak.voice": "Voice",
  "speak.voice_screen": "Set on the screen itself",
  "speak.voice_on": "Speaks",
  "speak.voice_off": "Captions only",
  "speak.listed_on": "speaks, volume {volume}",
  "speak.listed_off": "captions only",
  "speak.listed_quiet": "quiet {from}–{until}",
};
