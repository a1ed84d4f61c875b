// @ts-check
// Čeština: a milestone satellite's seats in the director console (milestone_console.js).

export const milestoneCs = {
  "milestone.rule": "Satelit s milníkem: spočítaný stack {chips} žetonů hned vyhrává místo",
  "milestone.reached": "Dosáhli milníku",
  "milestone.none_reached": "Žádné počítání zatím milníku nedosáhlo.",
  "milestone.stack": "spočítáno {chips} žetonů",
  "milestone.award": "Udělit místo",
  "milestone.award_label": "Místo uděleno: {name}",
  "milestone.confirm": "Udělit hráči {name} místo s {chips} žetony? Odchází a jeho žetony jsou mimo hru.",
  "milestone.won": {"one": "Za milník vyhráno {n} místo", "few": "Za milník vyhrána {n} místa", "other": "Za milník vyhráno {n} míst"},
  "prizes.seat": "Místo",
  "milestone.seat_won": "Místo vyhrané za milník",
  "tickets.status.withdrawn": "vzata zpět (místo zrušeno)",
  "milestone.finish_seat": "Místo vyhráno · vstupenka v hodnotě {prize}",
};
