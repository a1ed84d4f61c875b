// @ts-check
// Polski: komunikaty z napisami i głosem na ścianie i na ekranach stołów (speak.js), w językach
// graczy, których dotyczą; oraz ustawienia głosu ekranu.
export const speakPl = {
  "speak.move": "{name}, stół {table}, miejsce {seat}: proszę przejść do stołu {to_table}, miejsce {to_seat}.",
  "speak.move_open": "{name}, stół {table}, miejsce {seat}: proszę przejść do stołu {to_table}.",
  "speak.table_breaking": "Stół {table} jest rozwiązywany. Gracze przy stole {table}: proszę zostać na miejscach do otrzymania nowego miejsca.",
  "speak.in_the_money": {
    one: "Bańka pękła: wypłacane jest {n} miejsce i każdy pozostały gracz jest w kasie.",
    few: "Bańka pękła: wypłacane są {n} miejsca i każdy pozostały gracz jest w kasie.",
    many: "Bańka pękła: wypłacanych jest {n} miejsc i każdy pozostały gracz jest w kasie.",
    other: "Bańka pękła: wypłacanych jest {n} miejsca i każdy pozostały gracz jest w kasie.",
  },
  "speak.dinner_break": {
    one: "Przerwa obiadowa: {n} minuta. Gra wznawia się o {time}.",
    few: "Przerwa obiadowa: {n} minuty. Gra wznawia się o {time}.",
    many: "Przerwa obiadowa: {n} minut. Gra wznawia się o {time}.",
    other: "Przerwa obiadowa: {n} minuty. Gra wznawia się o {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Przerwa obiadowa: {n} minuta.",
    few: "Przerwa obiadowa: {n} minuty.",
    many: "Przerwa obiadowa: {n} minut.",
    other: "Przerwa obiadowa: {n} minuty.",
  },
  "speak.caption": "Komunikat dla sali",
  "speak.settings": "Komunikaty głosowe",
  "speak.here": "Ten ekran mówi",
  "speak.here_hint": "Jeden mówiący ekran na strefę; pozostałe pokazują tylko napisy.",
  "speak.volume": "Głośność",
  "speak.quiet": "Godziny ciszy (tylko napisy)",
  "speak.quiet_from": "Od",
  "speak.quiet_until": "Do",
  "speak.on": "Mówi",
  "speak.off": "Głos wyłączony",
  "speak.quiet_now": "Godziny ciszy",
  "speak.tap": "Dotknij, aby ten ekran mógł mówić",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Ustawione dla tego ekranu w konsoli dyrektora.",
  "speak.voice": "Głos",
  "speak.voice_screen": "Ustawiany na samym ekranie",
  "speak.voice_on": "Mówi",
  "speak.voice_off": "Tylko napisy",
  "speak.listed_on": "mówi, głośność {volume}",
  "speak.listed_off": "tylko napisy",
  "speak.listed_quiet": "cisza {from}–{until}",
};
