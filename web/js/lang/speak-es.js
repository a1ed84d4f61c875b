// @ts-check
// Español: anuncios con subtítulos y voz en la pared y en las pantallas de mesa (speak.js), en
// los idiomas de los jugadores a quienes conciernen; y la configuración de voz de la pantalla.
export const speakEs = {
  "speak.move": "{name}, mesa {table}, asiento {seat}: por favor, cambie a la mesa {to_table}, asiento {to_seat}.",
  "speak.move_open": "{name}, mesa {table}, asiento {seat}: por favor, cambie a la mesa {to_table}.",
  "speak.table_breaking": "La mesa {table} se rompe. Jugadores de la mesa {table}: permanezcan sentados hasta recibir su nuevo asiento.",
  "speak.in_the_money": {
    one: "La burbuja ha estallado: se paga {n} puesto y todos los jugadores que quedan están en premios.",
    other: "La burbuja ha estallado: se pagan {n} puestos y todos los jugadores que quedan están en premios.",
  },
  "speak.dinner_break": {
    one: "Descanso para cenar: {n} minuto. El juego se reanuda a las {time}.",
    other: "Descanso para cenar: {n} minutos. El juego se reanuda a las {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Descanso para cenar: {n} minuto.",
    other: "Descanso para cenar: {n} minutos.",
  },
  "speak.caption": "Anuncio a la sala",
  "speak.settings": "Anuncios hablados",
  "speak.here": "Esta pantalla habla",
  "speak.here_hint": "Una pantalla que habla por zona; las demás solo muestran los subtítulos.",
  "speak.volume": "Volumen",
  "speak.quiet": "Horas de silencio (solo subtítulos)",
  "speak.quiet_from": "Desde",
  "speak.quiet_until": "Hasta",
  "speak.on": "Hablando",
  "speak.off": "Voz apagada",
  "speak.quiet_now": "Horas de silencio",
  "speak.tap": "Toque para que esta pantalla pueda hablar",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Configurado para esta pantalla en la consola del director.",
  "speak.voice": "Voz",
  "speak.voice_screen": "Se configura en la propia pantalla",
  "speak.voice_on": "Habla",
  "speak.voice_off": "Solo subtítulos",
  "speak.listed_on": "habla, volumen {volume}",
  "speak.listed_off": "solo subtítulos",
  "speak.listed_quiet": "silencio {from}–{until}",
};
