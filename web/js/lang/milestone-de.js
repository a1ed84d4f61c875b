// @ts-check
// Deutsch: a milestone satellite's seats in the director console (milestone_console.js).

export const milestoneDe = {
  "milestone.rule": "Ein Satellit mit Meilenstein: ein gezählter Stack von {chips} Chips gewinnt sofort einen Platz",
  "milestone.reached": "Meilenstein erreicht",
  "milestone.none_reached": "Noch keine Zählung hat den Meilenstein erreicht.",
  "milestone.stack": "{chips} Chips gezählt",
  "milestone.award": "Platz vergeben",
  "milestone.award_label": "Platz an {name} vergeben",
  "milestone.confirm": "{name} einen Platz mit {chips} Chips vergeben? Die Chips sind danach aus dem Spiel.",
  "milestone.won": {"one": "{n} Platz am Meilenstein gewonnen", "other": "{n} Plätze am Meilenstein gewonnen"},
  "prizes.seat": "Platz",
  "milestone.seat_won": "Platz am Meilenstein gewonnen",
  "tickets.status.withdrawn": "zurückgenommen (Platz rückgängig)",
  "milestone.finish_seat": "Platz gewonnen · ein Ticket im Wert von {prize}",
};
