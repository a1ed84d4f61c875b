// The server's own sentences (refusals, bad input, the pot calculator's notes) in Czech.
// The server answers in English with a code and a field; the sentences a floor meets every
// day are matched here and said again in Czech, and anything not listed is shown as sent.

const STATUS = { open: "hraje", halted: "stojí", breaking: "se ruší", broken: "je zrušený" };
const table = (n, status) => `stůl ${n} ${STATUS[status] ?? status}`;

/** Whole messages: [pattern, Czech] (the groups are the values in the message). */
const MESSAGES = [
  [/^(.+) is not in the tournament$/, "hráč $1 není v turnaji"],
  [/^(.+) is already out$/, "hráč $1 už je vyřazený"],
  [/^(.+) has no seat yet$/, "hráč $1 ještě nemá místo"],
  [/^there is no table (\d+)$/, "stůl $1 neexistuje"],
  [/^table (\d+) has no seat (\d+)$/, "stůl $1 nemá místo $2"],
  [/^table (\d+) is (open|halted|breaking|broken)$/, (m) => table(m[1], m[2])],
  [/^table (\d+) is (halted|breaking|broken): (.+) has no seat to return to$/,
    (m) => `${table(m[1], m[2])}: hráč ${m[3]} se nemá kam vrátit`],
  [/^(.+) is already in the tournament$/, "hráč $1 už v turnaji je"],
  [/^every seat at the final table is taken$/, "všechna místa u finálového stolu jsou obsazená"],
  [/^late registration closed after level (\d+)$/, "pozdní registrace skončila po levelu $1"],
  [/^(.+) cannot re-enter: late registration and re-entry closed after level (\d+) \(this is level (\d+)\)$/,
    "hráč $1 nemůže na re-entry: pozdní registrace a re-entry skončily po levelu $2 (teď je level $3)"],
  [/^(.+) cannot re-enter: re-entry closed after level (\d+) \(this is level (\d+)\)$/,
    "hráč $1 nemůže na re-entry: re-entry skončilo po levelu $2 (teď je level $3)"],
  [/^(.+) cannot re-enter: this tournament allows no re-entry$/, "hráč $1 nemůže na re-entry: turnaj re-entry nedovoluje"],
  [/^seats are already drawn: late entries are seated as they register$/,
    "místa už jsou rozlosovaná: pozdě přihlášení dostanou místo při registraci"],
  [/^at least 2 registered players are needed for a draw$/, "k losování jsou potřeba aspoň 2 registrovaní hráči"],
  [/^(\d+) tables of (\d+) seat only (\d+) of (\d+) players$/, "$1 stolů po $2 místech posadí jen $3 z $4 hráčů"],
  [/^table (\d+) already exists$/, "stůl $1 už existuje"],
  [/^the (\d+) players left fit at the (\d+) open tables \((\d+) seats\): table (\d+) would break at once; .*$/,
    "$1 zbývajících hráčů se vejde k $2 otevřeným stolům ($3 míst): stůl $4 by se hned rušil; registrace, která nenajde volné místo, otevře stůl sama"],
  [/^table (\d+) seat (\d+) is empty$/, "stůl $1 místo $2 je prázdné"],
  [/^(.+) is not at table (\d+) seat (\w+) \(they sit at table (\d+) seat (\d+)\)$/,
    "hráč $1 nesedí u stolu $2 na místě $3 (sedí u stolu $4 na místě $5)"],
  [/^name the player, or the table and the seat$/, "zadejte hráče, nebo stůl a místo"],
  [/^(.+) is the last player left: the winner$/, "hráč $1 zbyl poslední: je to vítěz"],
  [/^(.+) is not out$/, "hráč $1 není vyřazený"],
  [/^table (\d+) has dealt a hand since (.+) busted: the right to dispute has ended \(TDA rule 19\)$/,
    "u stolu $1 se od vyřazení hráče $2 rozdala další hra: právo na reklamaci skončilo (pravidlo TDA 19)"],
  [/^the final table has been drawn: its seats are taken by the final draw$/,
    "finálový stůl je rozlosovaný: jeho místa obsadilo finálové losování"],
  [/^table (\d+) seat (\d+) is now taken by (.+)$/, "stůl $1 místo $2 teď obsadil hráč $3"],
  [/^table (\d+) is halted until it is balanced$/, "stůl $1 stojí, dokud se nevyrovná"],
  [/^table (\d+) has fewer than 2 players$/, "u stolu $1 sedí méně než 2 hráči"],
  [/^table (\d+) has unknown positions: report the button first$/, "u stolu $1 nejsou známé pozice: nejdřív nahlaste button"],
  [/^stud games have no button$/, "stud se hraje bez buttonu"],
  [/^(.+) has no planned move$/, "hráč $1 nemá naplánovaný přesun"],
  [/^table (\d+) seat (\d+) is taken by (.+): a floor decision$/, "stůl $1 místo $2 obsadil hráč $3: rozhodne floor"],
  [/^table (\d+) seat (\d+) is taken by (.+)$/, "stůl $1 místo $2 obsadil hráč $3"],
  [/^table (\d+) seat (\d+) is planned for another player$/, "stůl $1 místo $2 je určené jinému hráči"],
  [/^table (\d+) seat (\d+) is reserved$/, "stůl $1 místo $2 je rezervované"],
  [/^(.+) already sits at table (\d+) seat (\d+)$/, "hráč $1 už sedí u stolu $2 na místě $3"],
  [/^time is already called at table (\d+) seat (\d+)$/, "u stolu $1 na místě $2 už běží time"],
  [/^no time is called at table (\d+) seat (\d+)$/, "u stolu $1 na místě $2 neběží time"],
  [/^a name needs at least one letter or digit$/, "jméno potřebuje aspoň jedno písmeno nebo číslici"],
  [/^a name may not hold control characters or invisible marks$/, "jméno nesmí obsahovat řídicí znaky ani neviditelné značky"],
  [/^(\w+) is required$/, "chybí povinné pole $1"],
  [/^a player id may not hold control characters, invisible marks or spaces at either end, got (.+)$/,
    "id hráče nesmí obsahovat řídicí znaky, neviditelné značky ani mezery na začátku či konci: $1"],
  [/^the contributions add up to ([\d,]+), not the ([\d,]+) in the pot$/, "vklady dávají dohromady $1, ne $2 v potu"],
  [/^([\d,]+) is not a multiple of the smallest chip in play \(([\d,]+)\)$/, "$1 není násobek nejmenšího žetonu ve hře ($2)"],
  [/^a contribution cannot be negative \((.+)\)$/, "vklad nemůže být záporný ($1)"],
  [/^seat (\d+) is listed twice$/, "místo $1 je uvedené dvakrát"],
  [/^seat (\d+) does not exist$/, "místo $1 neexistuje"],
  [/^a PIN is 4 to 8 digits$/, "PIN má 4 až 8 číslic"],
  [/^there is already an account (.+)$/, "účet $1 už existuje"],
  [/^you cannot remove the account you are signed in with: another director can$/,
    "nelze odebrat účet, kterým jste přihlášeni: to může jiný ředitel"],
  [/^(.+) is the only director: make another director first$/, "$1 je jediný ředitel: nejdřív vytvořte dalšího"],
];

/** Parts of the pot calculator's notes, replaced wherever they stand. */
const PHRASES = [
  [/\bmain pot\b/g, "hlavní pot"],
  [/\bside pot (\d+)/g, "vedlejší pot $1"],
  [/\bnobody called the last ([\d,]+) of seat (\d+): it goes back to them/g, "posledních $1 od místa $2 nikdo nedorovnal: vrací se mu"],
  [/\bevery player who put in ([\d,]+) or more folded, so nobody can win those chips/g,
    "všichni, kdo vložili $1 a víc, složili: tyto žetony nemůže vyhrát nikdo"],
  [/\bno qualifying low among its players, the high hand scoops/g, "nikdo nemá kvalifikovaný low: high bere vše"],
  [/\bidentical hands win high and low, split as evenly as possible/g, "stejné ruce vyhrály high i low: dělí se co nejrovněji"],
  [/\bsplit high-low\b/g, "dělení high-low"],
  [/\bseats ([\d, ]+) and (\d+) split ([\d,]+)/g, "místa $1 a $2 si dělí $3"],
  [/\bseat (\d+) wins ([\d,]+)/g, "místo $1 bere $2"],
  [/\b(\d+) odd chips of ([\d,]+) to /g, "$1 lichých žetonů po $2 dostávají "],
  [/\bodd chip of ([\d,]+) to /g, "lichý žeton po $1 dostává "],
  [/\bseats ([\d, ]+) and (\d+)\b/g, "místa $1 a $2"],
  [/\bseat (\d+)\b/g, "místo $1"],
  [/\bfirst clockwise from the button\b/g, "první po směru hodin od buttonu"],
  [/\bthe high card by suit\b/g, "vyšší karta podle barvy"],
];

/** A server message in Czech, or the message as sent when it is not one of those above. */
export function messageCs(message) {
  if (!message) return message;
  for (const [pattern, cs] of MESSAGES) {
    const m = pattern.exec(message);
    if (m) return typeof cs === "function" ? cs(m) : message.replace(pattern, cs);
  }
  return message;
}

/** A pot note in Czech, phrase by phrase. */
export function potNoteCs(note) {
  let out = note;
  for (const [pattern, cs] of PHRASES) out = out.replace(pattern, cs);
  return out;
}
