"""The player search (``GET /api/t/{id}/players?q=``) on an index of the field's names.

A phone searching for its player sends a request per keystroke, and thousands of phones may
search at once: folding 10,000 names (``rulebook.fold``) and ranking every match cost 35-90
ms a keystroke. The index folds each name once and lays them out in one string, in name
order, so that a keystroke is a few ``str.find`` jumps (C speed) to the first matches in
rank order, and stops there.

What matches: every word of the query is in the folded name, or is the player's id (case
ignored). How matches rank, best first: the name exactly as typed (its words, in order), then a
name with a word that starts with the query's first word, then the other matches; in each,
players still in before the busted, then by name, then by registration.

Every search says how many players match in all (``count``), so a screen can say that it
shows only the first of them. The count is of names, not of who is busted, so an index keeps
the counts it has made for as long as it serves.

Names change with an entry (a registration, or a re-entry under another name, counted in
``state.entries``), a name corrected (``state.renamed``) and an entry withdrawn
(``state.unregistered``), so an index serves every version until one of those. Whether a
player is busted is read from the state at each search.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right

from ..engine.model import PlayerId
from ..engine.plan import Plan, PlannedMove
from ..engine.rulebook import fold
from ..engine.state import Player, Tournament

#: Before each name and between its words. No name holds a control character, so a query
#: word holding it matches nothing.
_SEP = "\x00"
#: Folded names kept across versions and tournaments: folding is most of an index's cost.
_FOLDED: dict[str, str] = {}
_FOLDED_MAX = 200_000


def folded(name: str) -> str:
    """``name`` as search compares it, its words joined by ``_SEP``."""
    if name.isascii():
        # Plain ASCII folds to its lower case (NFKD leaves it as it is).
        return _SEP.join(name.lower().split())
    key = _FOLDED.get(name)
    if key is None:
        if len(_FOLDED) >= _FOLDED_MAX:
            _FOLDED.clear()
        key = _FOLDED[name] = _SEP.join(fold(name).split())
    return key


#: The index of each tournament searched lately, with the copy it was built from: a copy
#: loaded afresh (after a failover, say) is indexed afresh. Only tournaments that exist are
#: indexed (an unknown id is refused before), and only so many are kept.
_INDEXES: dict[str, tuple[Tournament, PlayerIndex]] = {}
_INDEXES_MAX = 64


def index_of(tid: str, t: Tournament) -> PlayerIndex:
    """The field's index for ``t`` (the copy this process holds of ``tid``)."""
    held = _INDEXES.pop(tid, None)
    if held is not None and held[0] is t and held[1].fits(t):
        _INDEXES[tid] = held  # now the one searched last
        return held[1]
    index = PlayerIndex(t)
    if len(_INDEXES) >= _INDEXES_MAX:
        del _INDEXES[next(iter(_INDEXES))]  # the one searched least lately
    _INDEXES[tid] = (t, index)
    return index


class PlayerIndex:
    """The field's folded names in one string, in name order (then registration order)."""

    __slots__ = (
        "_counts",
        "_moves",
        "by_id",
        "folded_ids",
        "ids",
        "key",
        "names",
        "offsets",
        "text",
    )

    def __init__(self, t: Tournament) -> None:
        players = list(t.state.players.values())
        #: What the index was built from: the field's size, its entries, names corrected and
        #: entries withdrawn (see the module).
        self.key = _key(t)
        plain = [folded(p.name) for p in players]
        # A stable sort: the same names stay in registration order.
        order = sorted(range(len(plain)), key=plain.__getitem__)
        self.ids = [players[n].id for n in order]
        self.folded_ids = [pid.casefold() for pid in self.ids]
        #: Each entry's folded name, with the separator before it.
        self.names = [_SEP + plain[n] for n in order]
        #: Where each name starts in ``text`` (at the separator before it), then the end.
        self.offsets: list[int] = []
        at = 0
        for name in self.names:
            self.offsets.append(at)
            at += len(name)
        self.offsets.append(at)
        self.text = "".join(self.names)
        #: Entries by their player's id, case folded: a query word may be an id.
        self.by_id: dict[str, list[int]] = {}
        for i, pid in enumerate(self.folded_ids):
            if " " not in pid:
                self.by_id.setdefault(pid, []).append(i)
        #: The moves of the plan last asked about, by player (see ``moves``).
        self._moves: tuple[Plan, dict[PlayerId | None, PlannedMove]] | None = None
        #: How many names each query matched, by its folded words (see ``count``).
        self._counts: dict[tuple[str, ...], int] = {}

    def fits(self, t: Tournament) -> bool:
        return self.key == _key(t)

    def moves(self, plan: Plan) -> dict[PlayerId | None, PlannedMove]:
        """The plan's moves by player (each player's first), built once per plan: a plan
        stands until the next change of the state."""
        if self._moves is None or self._moves[0] is not plan:
            by_player: dict[PlayerId | None, PlannedMove] = {}
            for m in plan.moves:
                by_player.setdefault(m.player, m)
            self._moves = (plan, by_player)
        return self._moves[1]

    def search(self, t: Tournament, query: str, limit: int) -> list[Player]:
        """The players ``query`` finds, best first, at most ``limit``."""
        words = _words(query)
        if not words or limit <= 0:
            return []
        first = _SEP + words[0]
        exact = _SEP + _SEP.join(words)
        found = _Found(t.state.players, self.ids, limit)
        # The names exactly as typed are one run of the index (it is in name order).
        names = self.names
        i = bisect_left(names, exact)
        while i < len(names) and names[i] == exact and not found.full(_EXACT):
            found.add(i, _EXACT)
            i += 1
        # Every match holds each word: looked for where the rarest one is. When that is the
        # first word, where it starts a word of the name first (the better kinds), and the
        # other names only if those are not enough: a keystroke at 10,000 players rarely
        # needs more than the first few matches.
        rarest = self._rarest(words)
        if rarest == words[0]:
            if not self._scan(first, words, first, found, best=_STARTS):
                self._scan(rarest, words, first, found, best=_OTHER)
        else:
            self._scan(rarest, words, first, found, best=_STARTS)
        # A word may name a player by id rather than by name.
        for w in dict.fromkeys(words):
            for i in self.by_id.get(w, ()):
                if i not in found.seen and self._matches(i, words):
                    found.add(i, self._kind(i, first, exact), capped=False)
        return found.best()

    def count(self, query: str) -> int:
        """How many players ``query`` finds in all (``search`` shows the first of them)."""
        words = _words(query)
        if not words:
            return 0
        key = tuple(words)
        n = self._counts.get(key)
        if n is None:
            n = self._count(words)
            if len(self._counts) >= _COUNTS_MAX:
                self._counts.clear()
            self._counts[key] = n
        return n

    def _count(self, words: list[str]) -> int:
        # Every name, not the first matches: a filter per word, the rarest first, over the
        # names still left (C speed: a millisecond at 10,000 names for the commonest letter).
        names = self.names
        left = names
        for w in sorted(set(words), key=self.text.count):
            left = [name for name in left if w in name]
        # Matched by id, where a word is the id and not in the name (the others are counted).
        by_id = {i for w in set(words) for i in self.by_id.get(w, ())}
        return len(left) + sum(
            1 for i in by_id if self._matches(i, words) and not all(w in names[i] for w in words)
        )

    def _rarest(self, words: list[str]) -> str:
        return words[0] if len(words) == 1 else min(words, key=self.text.count)

    def _kind(self, i: int, first: str, exact: str) -> int:
        name = self.names[i]
        return _EXACT if name == exact else _STARTS if first in name else _OTHER

    def _scan(self, needle: str, words: list[str], first: str, found: _Found, best: int) -> bool:
        """Keep the matches among the names holding ``needle``, in index order (the exact
        ones are kept already); True when one past them could not be shown (``best``: the
        best kind they can be of)."""
        if found.full(best):
            return True
        text, offsets, names, ids = self.text, self.offsets, self.names, self.folded_ids
        seen, find = found.seen, text.find
        end = len(names)
        pos = find(needle)
        while pos != -1:
            i = bisect_right(offsets, pos) - 1
            if i not in seen:
                name = names[i]
                for w in words:
                    if w not in name and w != ids[i]:
                        break
                else:
                    kind = _STARTS if first in name else _OTHER
                    if found.add(i, kind) and found.full(best):
                        return True
            if i + 1 >= end:
                break
            pos = find(needle, offsets[i + 1])
        return False

    def _matches(self, i: int, words: list[str]) -> bool:
        name = self.names[i]
        return all(w in name or w == self.folded_ids[i] for w in words)


def _key(t: Tournament) -> tuple[int, int, int, int]:
    s = t.state
    return (len(s.players), s.entries, s.renamed, s.unregistered)


def _words(query: str) -> list[str]:
    """The folded words of ``query``; none when a word holds the separator (it matches no
    name, and would match across two)."""
    words = fold(query).split()
    return [] if any(_SEP in w for w in words) else words


#: The kinds of match, best first; each splits into players still in, then busted.
_EXACT, _STARTS, _OTHER = 0, 2, 4
#: Counts kept per index: a field's phones type the same few prefixes.
_COUNTS_MAX = 4096


class _Found:
    """Matches by kind, in rank order: the names exactly as typed, the names with a word
    that starts with the query's first word, the other names; each, players still in then
    busted."""

    __slots__ = ("ids", "kinds", "limit", "players", "seen")

    def __init__(self, players: dict[str, Player], ids: list[str], limit: int) -> None:
        self.players = players
        self.ids = ids
        self.limit = limit
        self.kinds: tuple[list[int], ...] = ([], [], [], [], [], [])
        self.seen: set[int] = set()

    def add(self, i: int, base: int, capped: bool = True) -> bool:
        """Keep entry ``i``, a match of kind ``base`` (``_EXACT``...); False when it can
        never be shown (its kind's place is taken)."""
        self.seen.add(i)
        kind = base + self.players[self.ids[i]].busted
        # Only the first ``limit`` are shown, a kind after the kinds above it; entries come
        # in index order (except for ``capped=False``), so one past the limit never is.
        if capped and sum(len(k) for k in self.kinds[: kind + 1]) >= self.limit:
            return False
        self.kinds[kind].append(i)
        return True

    def full(self, best: int) -> bool:
        """Whether the kinds down to ``best`` (players still in) have all that can be shown."""
        return sum(len(k) for k in self.kinds[: best + 1]) >= self.limit

    def best(self) -> list[Player]:
        hits: list[int] = []
        for kind in self.kinds:
            hits.extend(sorted(kind))
        return [self.players[self.ids[i]] for i in hits[: self.limit]]
