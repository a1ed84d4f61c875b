// @ts-check
// What the floor phone's panels share (floor.js builds it, the floor_*.js panels read it):
// the connection, what the floorperson picked and typed, the tab on screen, who is signed in,
// and the few actions every panel may take.

/**
 * What is picked and typed on the phone: kept across redraws.
 * @typedef {object} PhoneUi
 * @property {Set<string>} openWhy the moves and halts whose reason is open
 * @property {{ key: string, pick: "seat", player: string } | { key: string, pick: "player", then?: "seat" } | null} redirect
 *   a move sent elsewhere: the seat picked for its player, or first the player (the big blind's move)
 * @property {number | null} table the table chosen on the pad
 * @property {string} typed
 * @property {number | null} seat
 * @property {string | null} confirmBust the player the bust-out is being confirmed for
 * @property {string | null} bountyFor whose pot's winners are being picked (bounty_pick.js)
 * @property {boolean} bountySplit the pot is split: several winners picked before sending
 * @property {Set<string>} bountyPicked the split pot's winners picked
 * @property {string | null} undoFor
 * @property {string} search
 * @property {any[]} results
 * @property {any} [found] the search's last answer (search.js)
 * @property {"race" | "pots" | "rules"} tool the tools tab's tool
 * @property {{ player: string, kind: string } | null} sale asking to confirm a sale
 * @property {{ player: string, kind: string, status: string, message: string } | null} saleResult
 */

/**
 * @typedef {object} Principal
 * @property {string} role
 * @property {string | null} username
 * @property {number | null} table
 */

/**
 * The sheets and tools the table tab opens, built once by floor.js.
 * @typedef {object} PhoneTools
 * @property {any} race chiprace.js ChipRaceTool
 * @property {any} sameHand samehand.js SameHand
 * @property {any} countSheet counts.js CountSheet
 * @property {any} bagSheet flights.js BagSheet
 * @property {any} rulings rulings.js RulingsPhone
 * @property {{ button(pid: string): HTMLElement | null }} manage manage.js
 */

/**
 * @typedef {object} Phone
 * @property {any} conn conn.js Connection
 * @property {string} tid
 * @property {any} board board.js Board: the moves carried out lately
 * @property {any} outbox commands.js Outbox
 * @property {PhoneUi} ui
 * @property {string} tab the tab on screen: moves, table, search, tools, sent
 * @property {Principal} principal who is signed in
 * @property {PhoneTools} tools
 * @property {() => void} render redraw what is on screen
 * @property {(command: any, label: string) => Promise<any>} send through the outbox
 * @property {() => boolean} canMove floor staff or the director (not a dealer)
 * @property {(id: string | null | undefined) => void} openRule the rule in full, on the tools tab
 * @property {(decision: string) => string} ruleFor the rule a decision follows
 * @property {(table: number, seat?: number | null) => void} openTable
 * @property {(table?: number | null) => void} openRace
 */

export {};
