// @ts-check
// English: a milestone satellite's seats in the director console (milestone_console.js).

export const milestoneEn = {
  "milestone.rule": "A milestone satellite: a counted stack of {chips} chips wins a seat at once",
  "milestone.reached": "Reached the milestone",
  "milestone.none_reached": "No count has reached the milestone yet.",
  "milestone.stack": "{chips} chips counted",
  "milestone.award": "Award a seat",
  "milestone.award_label": "Seat awarded to {name}",
  "milestone.confirm": "Award {name} a seat with {chips} chips? They leave with their chips out of play.",
  "milestone.won": {"one": "{n} seat won at the milestone", "other": "{n} seats won at the milestone"},
  "prizes.seat": "Seat",
  "milestone.seat_won": "Won a seat at the milestone",
  "tickets.status.withdrawn": "withdrawn (seat undone)",
  "milestone.finish_seat": "Seat won · a ticket worth {prize}",
};
