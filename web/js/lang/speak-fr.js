// @ts-check
// Français : les annonces sous-titrées et parlées sur le mur et les écrans de table (speak.js),
// dans les langues des joueurs qu'elles concernent ; et le réglage de la voix de l'écran.
export const speakFr = {
  "speak.move": "{name}, table {table}, place {seat} : veuillez rejoindre la table {to_table}, place {to_seat}.",
  "speak.move_open": "{name}, table {table}, place {seat} : veuillez rejoindre la table {to_table}.",
  "speak.table_breaking": "La table {table} est cassée. Joueurs de la table {table} : restez assis jusqu'à ce qu'une nouvelle place vous soit donnée.",
  "speak.in_the_money": {
    one: "La bulle a éclaté : {n} place est payée, et chaque joueur restant est dans l'argent.",
    other: "La bulle a éclaté : {n} places sont payées, et chaque joueur restant est dans l'argent.",
  },
  "speak.dinner_break": {
    one: "Pause dîner : {n} minute. Reprise du jeu à {time}.",
    other: "Pause dîner : {n} minutes. Reprise du jeu à {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Pause dîner : {n} minute.",
    other: "Pause dîner : {n} minutes.",
  },
  "speak.caption": "Annonce à la salle",
  "speak.settings": "Annonces parlées",
  "speak.here": "Cet écran parle",
  "speak.here_hint": "Un seul écran parle par zone ; les autres n'affichent que les sous-titres.",
  "speak.volume": "Volume sonore",
  "speak.quiet": "Heures de silence (sous-titres seulement)",
  "speak.quiet_from": "De",
  "speak.quiet_until": "À",
  "speak.on": "Parle",
  "speak.off": "Voix coupée",
  "speak.quiet_now": "Heures de silence",
  "speak.tap": "Touchez pour que cet écran puisse parler",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Réglé pour cet écran sur la console du directeur.",
  "speak.voice": "Voix",
  "speak.voice_screen": "Réglée sur l'écran lui-même",
  "speak.voice_on": "Parle",
  "speak.voice_off": "Sous-titres seulement",
  "speak.listed_on": "parle, volume sonore {volume}",
  "speak.listed_off": "sous-titres seulement",
  "speak.listed_quiet": "silence {from}–{until}",
};
