// @ts-check
// Português (Brasil): a milestone satellite's seats in the director console (milestone_console.js).

export const milestonePtBr = {
  "milestone.rule": "Um satélite por meta: um stack contado de {chips} fichas ganha uma vaga na hora",
  "milestone.reached": "Atingiram a meta",
  "milestone.none_reached": "Nenhuma contagem atingiu a meta ainda.",
  "milestone.stack": "{chips} fichas contadas",
  "milestone.award": "Dar uma vaga",
  "milestone.award_label": "Vaga dada a {name}",
  "milestone.confirm": "Dar uma vaga a {name} com {chips} fichas? Sai com as fichas fora de jogo.",
  "milestone.won": {"one": "{n} vaga ganha pela meta", "other": "{n} vagas ganhas pela meta"},
  "prizes.seat": "Vaga",
  "milestone.seat_won": "Ganhou uma vaga pela meta",
  "tickets.status.withdrawn": "retirado (vaga desfeita)",
  "milestone.finish_seat": "Vaga ganha · um ticket de {prize}",
};
