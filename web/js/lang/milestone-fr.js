// @ts-check
// Français: a milestone satellite's seats in the director console (milestone_console.js).

export const milestoneFr = {
  "milestone.rule": "Un satellite à palier : un stack compté de {chips} jetons gagne une place sur-le-champ",
  "milestone.reached": "Ont atteint le palier",
  "milestone.none_reached": "Aucun comptage n'a encore atteint le palier.",
  "milestone.stack": "{chips} jetons comptés",
  "milestone.award": "Attribuer une place",
  "milestone.award_label": "Place attribuée à {name}",
  "milestone.confirm": "Attribuer une place à {name} avec {chips} jetons ? Ses jetons sortent du jeu avec lui.",
  "milestone.won": {"one": "{n} place gagnée au palier", "many": "{n} places gagnées au palier", "other": "{n} places gagnées au palier"},
  "prizes.seat": "Place",
  "milestone.seat_won": "A gagné une place au palier",
  "tickets.status.withdrawn": "retiré (place annulée)",
  "milestone.finish_seat": "Place gagnée · un ticket d'une valeur de {prize}",
};
