// @ts-check
// Polski: a milestone satellite's seats in the director console (milestone_console.js).

export const milestonePl = {
  "milestone.rule": "Satelita z progiem: policzony stack {chips} żetonów od razu wygrywa miejsce",
  "milestone.reached": "Osiągnęli próg",
  "milestone.none_reached": "Żadne liczenie nie osiągnęło jeszcze progu.",
  "milestone.stack": "policzono {chips} żetonów",
  "milestone.award": "Przyznaj miejsce",
  "milestone.award_label": "Miejsce przyznane: {name}",
  "milestone.confirm": "Przyznać miejsce graczowi {name} z {chips} żetonami? Odchodzi, a jego żetony wychodzą z gry.",
  "milestone.won": {"one": "Za próg wygrano {n} miejsce", "few": "Za próg wygrano {n} miejsca", "many": "Za próg wygrano {n} miejsc", "other": "Za próg wygrano {n} miejsca"},
  "prizes.seat": "Miejsce",
  "milestone.seat_won": "Miejsce wygrane za próg",
  "tickets.status.withdrawn": "cofnięty (miejsce cofnięte)",
  "milestone.finish_seat": "Miejsce wygrane · bilet wart {prize}",
};
