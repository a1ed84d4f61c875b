"""Folding the events of the players: entries, names, withdrawals, seats, bust-outs and undos."""

from __future__ import annotations

from ..events import (
    BustUndone,
    PlayerBusted,
    PlayerRegistered,
    PlayerRenamed,
    PlayerSeated,
    PlayerUnregistered,
)
from ..records import BustRecord, Player
from .index import Indexed


class PlayerFolds(Indexed):
    """The folds of the players' events."""

    __slots__ = ()

    def _player_registered(self, e: PlayerRegistered) -> None:
        # A new entry finishes above everyone already out: a place is the players still in when
        # the bust came, so each later entry moves every recorded place one down (a re-entry's
        # own earlier finish too, though its record is replaced below).
        # Nobody out, no place to move: a list of 1,300 entries is not 1,300 scans of the field.
        if e.shifts_places and self.state.busted:
            for other in self.state.players.values():
                if other.busted and other.bust is not None:
                    other.bust.place += 1
        p = self.state.players.get(e.player)
        if p is None:
            p = Player(
                id=e.player,
                name=e.name,
                special_needs=e.special_needs,
                stack=e.stack,
                country=e.country,
                note=e.note,
                lang=e.lang,
            )
            self.state.players[e.player] = p
        else:
            if p.busted:
                self.state.busted -= 1
            p.name = e.name
            p.busted = False
            p.bust = None
            p.moved = False
            p.excused = False
            p.locked = False
            p.special_needs = e.special_needs
            p.stack = e.stack
            p.counted = False
            p.counted_at = None
            p.left_bust_at = None
            p.country = e.country
            p.note = e.note
            p.lang = e.lang
        p.entries = e.entry
        self.state.entries += 1

    def _player_renamed(self, e: PlayerRenamed) -> None:
        self.state.players[e.player].name = e.name
        self.state.renamed += 1

    def _player_unregistered(self, e: PlayerUnregistered) -> None:
        s = self.state
        p = s.players[e.player]
        if p.table is not None:
            self._stand(p)
        del s.players[e.player]
        s.draws.pop(e.player, None)
        s.calls.pop(e.player, None)
        s.rulings.drop(e.player)
        s.entries -= 1
        s.unregistered += 1
        s.rebuys -= e.rebuys
        s.add_ons -= e.add_ons
        s.chips_added += e.change
        # Every place recorded counted this entry among the players still in (a later entry
        # moved the places one down as it came): without it, each is one better.
        for other in s.players.values():
            if other.busted and other.bust is not None:
                other.bust.place -= 1
        self._field_point(e.at)

    def _player_seated(self, e: PlayerSeated) -> None:
        self._sit(self.state.players[e.player], self.state.tables[e.table], e.seat)
        self._field_point(e.at)

    def _player_busted(self, e: PlayerBusted) -> None:
        p = self.state.players[e.player]
        self._stand(p)
        p.busted = True
        p.bust = BustRecord(
            table=e.table,
            seat=e.seat,
            hand=e.hand,
            place=e.place,
            stack=e.stack if e.stack is not None else p.stack,
            shares=e.shares,
            at=e.at,
            at_final=e.table == self.state.final_table,
            level=self.state.clock.level if self.state.clock.started else None,
            by=e.by,
        )
        p.stack = 0
        table = self.state.tables.get(e.table)
        if table is not None:
            table.busted_at = e.at
        self.state.draws.pop(p.id, None)
        self.state.calls.pop(p.id, None)
        self.state.rulings.drop(p.id)
        self.state.busted += 1
        self._field_point(e.at)

    def _bust_undone(self, e: BustUndone) -> None:
        p = self.state.players[e.player]
        record = p.bust
        p.busted = False
        p.bust = None
        if record is not None:
            p.stack = record.stack
            if record.seat_won:
                # A milestone's seat given back: its chips are in play again (``milestone``).
                self.state.seats_won -= 1
                self.state.chips_out -= record.stack or 0
            for other in self.state.players.values():
                b = other.bust
                if b is None or not other.busted:
                    continue
                if b.place < record.place:
                    # Those who busted after this player move one place down (27th, not 26th).
                    b.place += 1
                elif b.place == record.place:
                    # Those who shared the place keep the places it covered but the best.
                    b.place += 1
                    b.shares -= 1
        self._sit(p, self.state.tables[e.table], e.seat)
        self.state.busted -= 1
        self._field_point(e.at)
        # Two players again: live, the clock still stopped where the finish stopped it.
        self.state.winner = None
        self.state.finished_at = None
