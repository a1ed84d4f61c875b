// @ts-check
// Italiano: a milestone satellite's seats in the director console (milestone_console.js).

export const milestoneIt = {
  "milestone.rule": "Un satellite a traguardo: uno stack contato di {chips} fiche vince subito un posto",
  "milestone.reached": "Hanno raggiunto il traguardo",
  "milestone.none_reached": "Nessun conteggio ha ancora raggiunto il traguardo.",
  "milestone.stack": "{chips} fiche contate",
  "milestone.award": "Assegna un posto",
  "milestone.award_label": "Posto assegnato a {name}",
  "milestone.confirm": "Assegnare un posto a {name} con {chips} fiche? Esce con le sue fiche fuori gioco.",
  "milestone.won": {"one": "{n} posto vinto al traguardo", "other": "{n} posti vinti al traguardo"},
  "prizes.seat": "Posto",
  "milestone.seat_won": "Ha vinto un posto al traguardo",
  "tickets.status.withdrawn": "ritirato (posto annullato)",
  "milestone.finish_seat": "Posto vinto · un ticket del valore di {prize}",
};
