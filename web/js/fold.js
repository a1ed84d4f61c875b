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
      locked: false, moved: false, excused: false, stack: null, counted: false, counted_at: null,
      seated_bust_at: null, left_bust_at: null, entries: 1, rebuys: 0, add_ons: 0, bust: null, moves: 0,
      country: null, note: null,
    };
    state.players[id] = p;
    state.entries += 1;
  }
  return p;
}

function newTable(number, seats, extra = {}) {
  return {
    number, seats, status: "open", positions: null, button_reported: false, occupants: {},
    opened: [], hand: 0, halt_waived: false, hand_level: null, busted_at: null, ...extra,
  };
}

function sit(state, p, table, seat) {
  table.occupants[seat] = p.id;
  p.table = table.number;
  p.seat = seat;
  // The table's latest bust-out when the player sat down (floor/engine/count_age.py).
  p.seated_bust_at = table.busted_at ?? null;
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
    // The latest bust-out made at the table while the player sat there goes with them
    // (floor/engine/count_age.py).
    const since = table.busted_at != null
      && (p.seated_bust_at == null || table.busted_at > p.seated_bust_at);
    if (since && (p.left_bust_at ?? 0) < table.busted_at) p.left_bust_at = table.busted_at;
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
    if (e.shifts_places && s.busted) {
      for (const other of Object.values(s.players)) if (other.busted && other.bust) other.bust.place += 1;
    }
    let p = s.players[e.player];
    if (!p) {
      p = {
        id: e.player, name: e.name, table: null, seat: null, busted: false,
        special_needs: !!e.special_needs, locked: false, moved: false, excused: false,
        stack: e.stack ?? null, counted: false, counted_at: null, seated_bust_at: null, left_bust_at: null,
        entries: 1, rebuys: 0, add_ons: 0, bust: null, moves: 0, country: e.country ?? null, note: e.note ?? null,
      };
      s.players[e.player] = p;
    } else {
      if (p.busted) s.busted -= 1;
      Object.assign(p, {
        name: e.name, busted: false, bust: null, moved: false, excused: false, locked: false,
        special_needs: !!e.special_needs, stack: e.stack ?? null, counted: false, counted_at: null,
        left_bust_at: null, country: e.country ?? null, note: e.note ?? null,
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
  player_renamed(s, e) {
    s.players[e.player].name = e.name;
    s.renamed = (s.renamed ?? 0) + 1;
  },
  special_needs_set(s, e) {
    s.players[e.player].special_needs = e.special_needs;
  },
  player_unregistered(s, e) {
    // The entry withdrawn: as if never entered (floor/engine/state.py says why the places move).
    const p = s.players[e.player];
    if (p.table != null) stand(s, p);
    delete s.players[e.player];
    delete s.draws[e.player];
    if (s.calls) delete s.calls[e.player];
    dropSitOut(s, e.player);
    s.entries -= 1;
    s.unregistered = (s.unregistered ?? 0) + 1;
    s.rebuys = (s.rebuys ?? 0) - (e.rebuys ?? 0);
    s.add_ons = (s.add_ons ?? 0) - (e.add_ons ?? 0);
    s.chips_added = (s.chips_added ?? 0) + (e.change ?? 0);
    for (const other of Object.values(s.players)) if (other.busted && other.bust) other.bust.place -= 1;
    fieldPoint(s, e.at ?? 0);
  },
  player_busted(s, e) {
    const p = s.players[e.player];
    stand(s, p);
    p.busted = true;
    p.bust = {
      table: e.table, seat: e.seat, hand: e.hand, place: e.place, stack: p.stack,
      shares: e.shares ?? 1, at: e.at ?? 0,
      at_final: s.final_table != null && e.table === s.final_table,
    };
    p.stack = 0;
    // The counts taken at the table before are old (floor/engine/count_age.py).
    if (s.tables[e.table]) s.tables[e.table].busted_at = e.at ?? 0;
    // The right to undo ends with the level (floor/engine/undo.py).
    p.bust.level = s.clock.started ? s.clock.level : null;
    delete s.draws[p.id];
    delete (s.calls ||= {})[p.id];
    dropSitOut(s, p.id);
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
    // Two players again: live, the clock still stopped where the finish stopped it.
    s.winner = null;
    s.finished_at = null;
  },
  hand_started(s, e) {
    const table = s.tables[e.table];
    table.hand = e.hand;
    table.hand_level = e.level ?? null;
    table.button_reported = false;
    if (e.positions) table.positions = e.positions;
    for (const pid of Object.values(table.occupants)) s.players[pid].excused = false;
    // One hand fewer for whoever sits out there (floor/engine/ruling_log.py).
    const seated = new Set(Object.values(table.occupants));
    for (const x of rulings(s).sit_outs) if (x.hands_left && seated.has(x.player)) x.hands_left -= 1;
    const h4h = s.hand_for_hand;
    if (h4h && !h4h.dealt.includes(e.table)) h4h.dealt.push(e.table);
  },
  button_reported(s, e) {
    s.tables[e.table].positions = e.positions;
    s.tables[e.table].button_reported = true;
  },
  players_moved(s, e) {
    // Everybody stands up before anybody sits down, so two players can swap seats.
    for (const m of e.moves) stand(s, s.players[m.player]);
    for (const m of e.moves) {
      const p = s.players[m.player];
      sit(s, p, s.tables[m.to.table], m.to.seat);
      delete s.draws[p.id];
      delete (s.calls ||= {})[p.id];
      if (e.reason === "balance" || e.reason === "break") p.moved = true;
      if (e.reason !== "correction") p.moves = (p.moves ?? 0) + 1;
    }
  },
  moves_called(s, e) {
    s.calls ||= {};
    for (const c of e.calls) {
      s.calls[c.player] = {
        from_table: c.from.table, table: c.to.table, seat: c.to.seat ?? null, reason: c.reason,
        at: e.at ?? 0, count: c.count ?? 1,
      };
      // A drawn seat called again elsewhere at its table: the draw is that seat now.
      const drawn = s.draws[c.player];
      if (drawn && c.to.seat != null && c.to.seat !== drawn.seat) {
        s.draws[c.player] = { table: c.to.table, seat: c.to.seat, reason: drawn.reason };
      }
    }
  },
  calls_lapsed(s, e) {
    for (const pid of e.players) delete (s.calls ||= {})[pid];
  },
  move_cancelled(s, e) {
    if (e.player == null) return;
    delete (s.calls ||= {})[e.player];
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
    final.button_reported = false;
    for (const table of Object.values(s.tables)) {
      if (table.number !== e.table && table.status === "open") setStatus(s, table, "breaking");
    }
  },
  tournament_finished(s, e) {
    s.winner = e.winner;
    s.finished_at = e.at;
    s.time_calls = [];
    if (e.remaining != null) Object.assign(s.clock, { running: false, ends_at: null, remaining: e.remaining });
  },
  tournament_closed(s, e) {
    s.closed_at = e.at;
  },
  flight_set(s, e) {
    s.flight = e;
  },
  table_bagged(s, e) {
    s.bags = { ...(s.bags ?? {}), [e.table]: e };
    for (const b of e.bags) {
      const p = s.players[b.player];
      p.stack = b.stack;
      p.counted = true;
      p.counted_at = e.at;
    }
  },
  field_carried(s, e) {
    s.entries += e.entries;
    s.rebuys = (s.rebuys ?? 0) + e.rebuys;
    s.add_ons = (s.add_ons ?? 0) + e.add_ons;
    s.chips_added = (s.chips_added ?? 0) + e.chips;
  },
  day_ended(s, e) {
    s.day_ended = e;
    s.time_calls = [];
    if (e.remaining != null) Object.assign(s.clock, { running: false, ends_at: null, remaining: e.remaining });
  },
  prize_changed(s, e) {
    s.structure = { ...s.structure, prize: e.prize ?? null };
  },
  structure_changed(s, e) {
    s.structure = e.structure;
    if (e.remaining != null) s.clock.remaining = e.remaining;
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
    p.counted_at = e.at ?? null;
  },
  stacks_counted(s, e) {
    for (const c of e.stacks) {
      const p = s.players[c.player];
      p.stack = c.stack;
      p.counted = true;
      p.counted_at = e.at;
    }
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
    const who = new Map(e.players.map((r) => [r.seat, r]));
    for (const r of e.result.seats) {
      const raced = who.get(r.seat);
      const p = s.players[raced.player];
      p.stack = r.stack;
      // A stack nobody counted raced as given: it is no count after the race either.
      if (raced.counted ?? true) {
        p.counted = true;
        p.counted_at = e.at ?? 0;
      }
    }
    s.chips_added = (s.chips_added ?? 0) + e.change;
    // Who sat where is kept too (the server's record has only the seats), for showing names.
    (s.chip_races ||= []).push({ table: e.table, at: e.at ?? 0, result: e.result, players: e.players });
  },
};

// Rulings and sit-outs (floor/engine/ruling_log.py) --------------------------------------------

function rulings(s) {
  return (s.rulings ||= { made: [], sit_outs: [], disqualified: {} });
}

function dropSitOut(s, player) {
  const log = rulings(s);
  log.sit_outs = log.sit_outs.filter((x) => x.player !== player);
}

Object.assign(HANDLERS, {
  ruling_recorded(s, e) {
    const log = rulings(s);
    const { type, ...ruling } = e;
    log.made.push(ruling);
    for (const p of e.penalties) {
      if (p.kind === "sit_out") {
        log.sit_outs.push({ player: p.player, ruling: e.number, at: e.at, ends_at: p.ends_at ?? null, hands_left: p.hands ?? null });
      } else if (p.kind === "disqualification") {
        log.disqualified[p.player] = e.number;
        dropSitOut(s, p.player);
        s.chips_added = (s.chips_added ?? 0) - (p.chips || 0);
      }
    }
  },
  sit_out_ended(s, e) {
    const log = rulings(s);
    log.sit_outs = log.sit_outs.filter((x) => !(x.player === e.player && x.ruling === e.ruling));
  },
});

// Hand-for-hand (floor/engine/hand_for_hand_round.py) -----------------------------------------

Object.assign(HANDLERS, {
  hand_for_hand_started(s, e) {
    s.hand_for_hand = {
      round: 1, started_at: e.at ?? 0, paused_clock: !!e.paused_clock, dealt: [], done: [], out: [],
    };
  },
  hand_reported(s, e) {
    s.hand_for_hand.done.push(e.table);
    s.hand_for_hand.out.push(...(e.out || []));
  },
  hand_for_hand_dealt(s, e) {
    Object.assign(s.hand_for_hand, { round: e.round, dealt: [], done: [], out: [] });
  },
  hand_for_hand_ended(s) {
    s.hand_for_hand = null;
  },
});

/** Apply one event to the state; false for an event type this screen does not know. */
export function apply(state, event) {
  const handler = HANDLERS[event.type];
  if (!handler) return false;
  handler(state, event);
  return true;
}
