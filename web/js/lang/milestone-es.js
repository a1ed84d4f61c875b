// @ts-check
// Español: a milestone satellite's seats in the director console (milestone_console.js).

export const milestoneEs = {
  "milestone.rule": "Un satélite por meta: un stack contado de {chips} fichas gana un asiento en el acto",
  "milestone.reached": "Han alcanzado la meta",
  "milestone.none_reached": "Ningún conteo ha alcanzado la meta todavía.",
  "milestone.stack": "{chips} fichas contadas",
  "milestone.award": "Dar un asiento",
  "milestone.award_label": "Asiento dado a {name}",
  "milestone.confirm": "¿Dar un asiento a {name} con {chips} fichas? Se va con sus fichas fuera de juego.",
  "milestone.won": {"one": "{n} asiento ganado por la meta", "other": "{n} asientos ganados por la meta"},
  "prizes.seat": "Asiento",
  "milestone.seat_won": "Ganó un asiento por la meta",
  "tickets.status.withdrawn": "retirado (asiento deshecho)",
  "milestone.finish_seat": "Asiento ganado · un ticket de {prize}",
};
