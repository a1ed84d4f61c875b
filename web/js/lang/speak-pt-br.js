// @ts-check
// Português (Brasil): anúncios com legendas e voz na parede e nas telas das mesas (speak.js), nos
// idiomas dos jogadores a quem dizem respeito; e o ajuste de voz da tela.
export const speakPtBr = {
  "speak.move": "{name}, mesa {table}, cadeira {seat}: por favor, vá para a mesa {to_table}, cadeira {to_seat}.",
  "speak.move_open": "{name}, mesa {table}, cadeira {seat}: por favor, vá para a mesa {to_table}.",
  "speak.table_breaking": "A mesa {table} vai ser quebrada. Jogadores da mesa {table}: permaneçam sentados até receberem uma nova cadeira.",
  "speak.in_the_money": {
    one: "A bolha estourou: {n} posição é paga e todo jogador que resta está na premiação.",
    other: "A bolha estourou: {n} posições são pagas e todo jogador que resta está na premiação.",
  },
  "speak.dinner_break": {
    one: "Intervalo para o jantar: {n} minuto. O jogo recomeça às {time}.",
    other: "Intervalo para o jantar: {n} minutos. O jogo recomeça às {time}.",
  },
  "speak.dinner_break_paused": {
    one: "Intervalo para o jantar: {n} minuto.",
    other: "Intervalo para o jantar: {n} minutos.",
  },
  "speak.caption": "Anúncio para o salão",
  "speak.settings": "Anúncios falados",
  "speak.here": "Esta tela fala",
  "speak.here_hint": "Uma tela que fala por área; as outras mostram só as legendas.",
  "speak.volume": "Volume do som",
  "speak.quiet": "Horas de silêncio (só legendas)",
  "speak.quiet_from": "De",
  "speak.quiet_until": "Até",
  "speak.on": "Falando",
  "speak.off": "Voz desligada",
  "speak.quiet_now": "Horas de silêncio",
  "speak.tap": "Toque para que esta tela possa falar",
  // The named screens' voice on the director's console (walls_console.js).
  "speak.kept": "Ajustado para esta tela no console do diretor.",
  "speak.voice": "Voz",
  "speak.voice_screen": "Ajustada na própria tela",
  "speak.voice_on": "Fala",
  "speak.voice_off": "Só legendas",
  "speak.listed_on": "fala, volume do som {volume}",
  "speak.listed_off": "só legendas",
  "speak.listed_quiet": "silêncio {from}–{until}",
};
