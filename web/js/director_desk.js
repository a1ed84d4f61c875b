// @ts-check
// What the director console's sections share (director.js builds it, director_*.js read it).

/**
 * @typedef {object} Desk
 * @property {any} conn conn.js Connection: null without a tournament chosen
 * @property {string} tid the tournament chosen ("" for none)
 * @property {any} outbox commands.js Outbox (null without a tournament)
 * @property {any} prizes prizes.js Prizes (null without a tournament)
 * @property {{ button(pid: string): HTMLElement | null }} manage manage.js: the player panel
 * @property {Record<string, HTMLElement>} sections the console's sections, by id
 * @property {(id: string, key: string, extra?: any) => HTMLElement} heading a section's heading
 * @property {import("./types.js").Send} send through the outbox
 * @property {(path: string, options?: any, okText?: string) => Promise<any>} call the API,
 *   a toast for the answer
 * @property {import("./ui.js").Principal} principal who is signed in
 */

export {};
