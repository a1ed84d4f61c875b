// The event fold: the same changes `Tournament.apply` (floor/engine/state.py) makes, on the
// state JSON a screen got in its snapshot. Kept small and faithful: no rule is decided here;
// the plan and the field numbers come from the server with every batch.
//
// JSON object keys are strings (tables by number, occupants by seat): `tables[7]` and
// `tables["7"]` are the same key in JavaScript, so numbers are used freely.

/** Count the seated players once, after a snapshot (the server's `Tournament.active`). */
export function prepare(state) {
  let active = 0;
  for (const table of Object.values(state.tables)) active += Object.keys(table.occupants).length;
  Object.defineProperty(state, "active", { value: active, writable: true, enumerable: false });
  return state;
}

function player(state, id, name) {
  let p = state.players[id];
  if (!p) {
    p = {
      id, name: name || id, table: null, seat: null, busted: false, special_needs: false,
      locked: false, moved: false, excused: false, stack: null, counted: false, entries: 1,
      rebuys: 0, add_ons: 0, bust: null,
    };
    state.players[id] = p;
    state.entries += 1;
  }
  return p;
}

function newTable(number, seats, extra = {}) {
  return {
    number, seats, status: "open", positions: null, occupants: {}, opened: [], hand: 0,
    halt_waived: false, hand_level: null, ...extra,
  };
}

function sit(state, p, table, seat) {
  table.occupants[seat] = p.id;
  p.table = table.number;
  p.seat = seat;
  state.active += 1;
}

function stand(state, p) {
  const table = state.tables[p.table];
  if (table) {
    delete table.occupants[p.seat];
    table.opened.push(p.seat);
    if (table.opened.length > 4 * table.seats) {
      table.opened.splice(0, table.opened.length - 2 * table.seats);
    }
  }
  p.table = null;
  p.seat = null;
  state.active -= 1;
}

function fieldPoint(state, at) {
  state.field_history.push([at, state.active]);
}

function levelPoint(state, level, at) {
  state.level_history.push([level, at, state.active, state.entries]);
}

function setStatus(state, table, status) {
  table.status = status;
}

const HANDLERS = {
  table_opened(s, e) {
    s.tables[e.table] = newTable(e.table, e.seats);
  },
  table_set_up(s, e) {
    const table = newTable(e.table, e.seats, {
      positions: e.positions ?? null, opened: [...(e.opened || [])],
    });
    s.tables[e.table] = table;
    for (const seat of Object.keys(e.occupants).map(Number).sort((a, b) => a - b)) {
      sit(s, player(s, e.occupants[seat]), table, seat);
    }
    s.drawn = true;
  },
  player_registered(s, e) {
    // A new entry moves every recorded place one down (floor/engine/state.py says why).
    if (e.shifts_places) {
      for (const other of Object.values(s.players)) if (other.busted && other.bust) other.bust.place += 1;
    }
    let p = s.players[e.player];
    if (!p) {
      p = {
        id: e.player, name: e.name, table: null, seat: null, busted: false,
        special_needs: !!e.special_needs, locked: false, moved: false, excused: false,
        stack: e.stack ?? null, counted: false, entries: 1, rebuys: 0, add_ons: 0, bust: null,
      };
      s.players[e.player] = p;
    } else {
      if (p.busted) s.busted -= 1;
      Object.assign(p, {
        name: e.name, busted: false, bust: null, moved: false, excused: false, locked: false,
        special_needs: !!e.special_needs, stack: e.stack ?? null, counted: false,
      });
    }
    p.entries = e.entry ?? 1;
    s.entries += 1;
  },
  seats_drawn(s, e) {
    for (const x of e.seats) sit(s, s.players[x.player], s.tables[x.table], x.seat);
    s.drawn = true;
    fieldPoint(s, e.at ?? 0);
  },
  player_seated(s, e) {
    sit(s, s.players[e.player], s.tables[e.table], e.seat);
    fieldPoint(s, e.at ?? 0);
  },
  player_busted(s, e) {
    const p = s.players[e.player];
    stand(s, p);
    p.busted = true;
    p.bust = {
      table: e.table, seat: e.seat, hand: e.hand, place: e.place, stack: p.stack,
      shares: e.shares ?? 1, at: e.at ?? 0,
    };
    p.stack = 0;
    delete s.draws[p.id];
    s.busted += 1;
    fieldPoint(s, e.at ?? 0);
  },
  bust_undone(s, e) {
    const p = s.players[e.player];
    const record = p.bust;
    p.busted = false;
    p.bust = null;
    if (record) {
      p.stack = record.stack ?? null;
      for (const other of Object.values(s.players)) {
        const b = other.bust;
        if (!b || !other.busted) continue;
        if (b.place < record.place) {
          // Those who busted after this player move one place down (27th, not 26th).
          b.place += 1;
        } else if (b.place === record.place) {
          // Those who shared the place keep the places it covered but the best.
          b.place += 1;
          b.shares = (b.shares ?? 1) - 1;
        }
      }
    }
    sit(s, p, s.tables[e.table], e.seat);
    s.busted -= 1;
    fieldPoint(s, e.at ?? 0);
  },
  hand_started(s, e) {
    const table = s.tables[e.table];
    table.hand = e.hand;
    table.hand_level = e.level ?? null;
    if (e.positions) table.positions = e.positions;
    for (const pid of Object.values(table.occupants)) s.players[pid].excused = false;
  },
  button_reported(s, e) {
    s.tables[e.table].positions = e.positions;
  },
  players_moved(s, e) {
    // Everybody stands up before anybody sits down, so two players can swap seats.
    for (const m of e.moves) stand(s, s.players[m.player]);
    for (const m of e.moves) {
      const p = s.players[m.player];
      sit(s, p, s.tables[m.to.table], m.to.seat);
      delete s.draws[p.id];
      if (e.reason === "balance" || e.reason === "break") p.moved = true;
    }
  },
  move_cancelled(s, e) {
    if (e.player == null) return;
    if (e.reason === "balance") s.players[e.player].excused = true;
    else delete s.draws[e.player];
  },
  seat_lock_set(s, e) {
    s.players[e.player].locked = e.locked;
  },
  halt_waived(s, e) {
    s.tables[e.table].halt_waived = e.waived;
  },
  game_changed(s, e) {
    s.current_game = e.game;
  },
  table_breaking(s, e) {
    setStatus(s, s.tables[e.table], "breaking");
  },
  seats_assigned(s, e) {
    if (e.reason === "final") s.final_drawn = true;
    for (const pid of e.withdrawn || []) delete s.draws[pid];
    for (const x of e.seats) s.draws[x.player] = { table: x.table, seat: x.seat, reason: e.reason };
  },
  table_broken(s, e) {
    setStatus(s, s.tables[e.table], "broken");
  },
  final_table_formed(s, e) {
    s.final_table = e.table;
    s.final_seats = e.seats;
    s.final_drawn = false;
    s.draws = {};
    const final = s.tables[e.table];
    final.seats = Math.max(final.seats, e.seats);
    final.positions = null;
    for (const table of Object.values(s.tables)) {
      if (table.number !== e.table && table.status === "open") setStatus(s, table, "breaking");
    }
  },
  clock_started(s, e) {
    const c = s.clock;
    Object.assign(c, { started: true, running: true, level: e.level, ends_at: e.ends_at,
      remaining: e.ends_at - e.at });
    levelPoint(s, e.level, e.at);
  },
  clock_paused(s, e) {
    Object.assign(s.clock, { running: false, ends_at: null, remaining: e.remaining });
  },
  clock_resumed(s, e) {
    Object.assign(s.clock, { running: true, ends_at: e.ends_at, remaining: e.ends_at - e.at });
  },
  clock_adjusted(s, e) {
    Object.assign(s.clock, { ends_at: e.ends_at ?? null, remaining: e.remaining });
  },
  level_changed(s, e) {
    Object.assign(s.clock, { level: e.level, ends_at: e.ends_at ?? null, remaining: e.remaining });
    levelPoint(s, e.level, e.at);
    const step = s.structure?.levels?.[e.level];
    if (s.rules.game === "mixed" && step && step.type === "level" && step.game) {
      s.current_game = step.game;
    }
  },
  time_called(s, e) {
    s.time_calls = s.time_calls.filter((c) => !(c.table === e.table && c.seat === e.seat));
    s.time_calls.push({
      table: e.table, seat: e.seat, player: e.player ?? null, at: e.at,
      count_from: e.count_from, ends_at: e.ends_at,
    });
  },
  time_call_ended(s, e) {
    s.time_calls = s.time_calls.filter((c) => !(c.table === e.table && c.seat === e.seat));
  },
  stack_set(s, e) {
    const p = s.players[e.player];
    p.stack = e.stack;
    p.counted = true;
  },
  rebuy_made(s, e) {
    const p = s.players[e.player];
    p.rebuys = e.count;
    p.stack = e.stack ?? null;
    s.rebuys = (s.rebuys ?? 0) + 1;
    s.chips_added = (s.chips_added ?? 0) + e.chips;
  },
  add_on_made(s, e) {
    const p = s.players[e.player];
    p.add_ons = e.count;
    p.stack = e.stack ?? null;
    s.add_ons = (s.add_ons ?? 0) + 1;
    s.chips_added = (s.chips_added ?? 0) + e.chips;
  },
  chips_raced(s, e) {
    const who = new Map(e.players.map((r) => [r.seat, r.player]));
    for (const r of e.result.seats) {
      const p = s.players[who.get(r.seat)];
      p.stack = r.stack;
      p.counted = true;
    }
    s.chips_added = (s.chips_added ?? 0) + e.change;
    // Who sat where is kept too (the server's record has only the seats), for showing names.
    (s.chip_races ||= []).push({ table: e.table, at: e.at ?? 0, result: e.result, players: e.players });
  },
};

/** Apply one event to the state; false for an event type this screen does not know. */
export function apply(state, event) {
  const handler = HANDLERS[event.type];
  if (!handler) return false;
  handler(state, event);
  return true;
}
