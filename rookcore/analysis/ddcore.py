"""Compiled (numba) search core of the double-dummy solver; `rookcore.analysis.dd` drives it.

The search is the one described in `rookcore.analysis.dd` (fail-soft alpha-beta on the remainder value, N–S view),
written over int64 arrays so that numba compiles it to machine code (first use compiles it once and caches it in
``__pycache__``). Cards have the core's own ids (`dd._nb_arrays` maps them): 16·effective suit + rank order (0 the
highest), so that each suit is one 16-bit run of a card mask, highest card on the lowest bit; masks are int64 (bit 63
is the sign).

Partition search (Ginsberg 1996; the form of Haglund and Hein's DDS): every node also reports, in ``W[REL_]``, the
cards whose rank decided its value (a trick's winner that beat a card of its own suit, the sure trumps of a static
bound, the explicit cards of the table entries it used). A table entry stored at a trick boundary keeps, in each
suit, the cards down to the lowest such card explicit (their holders and classes) and abstracts the cards below to
their holders and classes only (`_kvec`): the entry's bounds hold for every position that agrees on that much,
since those low cards never decided a trick in the search that proved them. Equivalent cards (one of a pair merged
by the move generator) stay on the same side of the threshold, and only cards adjacent since the search's root are
merged (`_normal`), so a merge below never depends on a card the partition abstracts.

Arrays (built by `dd._nb_arrays`); two are passed to every call, since numba passes each array as several words:

* ``W`` int64 (W_SIZE,): the tables T (6 rows of 64 at SUIT, TKEY (trump key, 0 off trump), RKEY (rank key), PTS,
  CLS (equivalence class: points·2 + privilege), CI (index of the class among the rule set's classes)), then the
  parameters at P0: M, TB, NESTV, BONUSV, BONUS (0/1), PRIV mask, TRUMP suit, SM0..SM3 (suit masks), HAND_SIZE, NODES
  (counter, written), GEN (table generation: entries of other generations are empty), TTMASK (entries − 1), ZERO
  (0), LIMIT (node count at which the search stops), ABORT (set
  to 1 when it stopped: the value returned is then meaningless and nothing was stored from then on), ROOT (the
  cards in play at the search's root), REL (the relevance the last node returned), SH1, SH2 (the hands' shape
  hashes, `set_shape`: kept up to date card by card, so a lead finds its table bucket, and prefetches its tags,
  before `_normal` scans the hands), and the objective (`set_objective`): A0, A1 (value of a trick's point won by
  N–S / E–W), N0, N1 (of the nest to N–S / E–W), B0, B1 (of the majority bonus to N–S / E–W), NESTP (the nest's
  points), OBJ (0 the points objective, 1/2 the declaring team's own points, N–S/E–W declaring: part of every
  table key, so the objectives' entries never meet); then the hands at H_ (mutated during search, restored on
  return), per-ply move / score buffers at MV_ and SC_ (64 plies × 24), the random keys of the partition hashes at ZS_ (a card's
  (seat, suit, class)) and ZP_ (a suit's k-th card's holder and class), and per lead node (by tricks left) each
  suit's prefix hashes at PH_; then the killers at KL_ (per ply, used at leads and third seat: 1 + the last card
  that cut off a node of that ply when it was not the first card tried, 0 for none).
* ``TT`` int64 (N + N/16, 4): the transposition table. Rows 0..N−1 are 32-byte entries: the key's rank-free hash
  (`_base`: the hands' (suit, class) multisets, leader, bonus state, generation), s1 ^ bounds (s1 = `_psig`: that
  hash with the explicit cards' holders and classes and their counts), the bounds packed ((lower + 2³⁰)·2³² + upper
  + 2³⁰, clamped to ±(2³⁰ − 1) = unbounded), and best card's normalised bit + 1 + 128·tricks left + 2048·explicit
  counts (5 bits a suit) + 2³¹·generation. The entries of one rank-free key share a bucket of `BUCKET` slots (a
  position's partitions differ only in their explicit cards); the rows after N hold a 16-bit tag per slot (10 bits
  of the key, tricks left, generation mod 4), so a probe reads 128 bytes of tags and only the entries they point to.
  A false match needs two independent 64-bit hashes to agree: odds far below any hardware fault rate. Threads may
  share one table without locks (each with its own ``W``): a slot read while another thread writes it mixes words of
  two writes, and then s1 ^ bounds no longer matches (Hyatt's lockless hashing), so it reads as empty; a tag lost to
  a concurrent write only hides its entry; the best card only orders moves.
"""
from __future__ import annotations

import numpy as np
from llvmlite import ir
from numba import njit, types
from numba.core import cgutils
from numba.core.extending import intrinsic
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros

__all__ = ["after_card", "new_table", "set_objective", "INF"]

INF = 1 << 40
SUIT, TKEY, RKEY, PTS, CLS, CI = 0, 64, 128, 192, 256, 320  # rows of T, 64 wide, in W
P0 = 6 * 64  # P follows T in W, then H, MV, SC and the hash tables
M_, TB_, NESTV_, BONUSV_, BONUS_, PRIV_, TRUMP_, SM_, HAND_SIZE_, NODES_, GEN_, TTMASK_, ZERO_ = (
    P0 + i for i in (0, 1, 2, 3, 4, 5, 6, 7, 11, 12, 13, 14, 15))
LIMIT_, ABORT_, ROOT_, REL_ = P0 + 17, P0 + 18, P0 + 19, P0 + 20
SH1_, SH2_ = P0 + 21, P0 + 22  # the shape hashes of the hands (`set_shape`), kept up to date as cards are played
# the objective (`set_objective`): what a trick's points, the nest and the bonus are worth to N–S or to E–W
A0_, A1_, N0_, N1_, B0_, B1_, NESTP_, OBJ_ = (P0 + i for i in range(23, 31))
H_ = P0 + 32
MV_ = H_ + 4
SC_ = MV_ + 64 * 24
ZS_ = SC_ + 64 * 24  # shape hash of a card in a seat's hand: 2 signatures × (4 seats × 64 cards)
ZP_ = ZS_ + 2 * 256  # hash of a held card by position: 4 suits × 16 ranks × 4 seats × 16 classes
PH_ = ZP_ + 4096  # per lead node with n tricks left (17 × 4 suits × 17): each suit's prefix hashes
PH_STRIDE = 4 * 17
KL_ = PH_ + 17 * PH_STRIDE  # per ply (leads, third seat): 1 + the killer card (0: none yet)
W_SIZE = KL_ + 64
BUCKET = 64  # table slots per bucket: one rank-free key's entries share a bucket (their tags: 128 bytes)




def new_table(entries: int) -> np.ndarray:
    """Empty transposition table of ``entries`` slots (rounded down to a power of two N, at least `BUCKET`), int64
    (N + N/16, 4), 34 bytes a slot, 64-byte aligned: rows 0..N−1 the entries (32 bytes), then each slot's 16-bit tag
    (16 to a row, `_tags`)."""
    n = 1 << max(BUCKET.bit_length() - 1, int(entries).bit_length() - 1)
    rows = n + n // 16
    buf = np.zeros(rows * 4 + 8, np.int64)
    off = (-buf.ctypes.data % 64) // 8
    return buf[off:off + rows * 4].reshape(rows, 4)


def set_objective(W, objective: int, M: int, TB: int, nest_pts: int, bonus: int) -> None:
    """Write the search's objective into ``W`` (int64 work array, module doc). The remainder value (N–S view: N–S
    maximise it, E–W minimise it) is a sum over the tricks still to be won and the end of the hand:

    * ``objective`` 0, the points objective (`dd`'s module doc): a trick of ``tp`` points is worth ±(tp·M + TB)
      (+ to N–S), the nest ±M·nest_pts to the team of the last trick, the majority bonus ±M·bonus to the team with
      more tricks (none on an equal split). ``M``, ``TB``: 32 and 1 under the Partnership tie-break, else 1 and 0.
    * ``objective`` 1: the points N–S capture (N–S declaring: they maximise their own points, E–W minimise them):
      a trick's points, the nest and the bonus count only when N–S win them (``M``, ``TB`` are ignored).
    * ``objective`` 2: minus the points E–W capture (E–W declaring: N–S minimise E–W's points).

    ``nest_pts``: the nest's points; ``bonus``: the rule set's majority bonus (points). Raises ValueError for
    another objective. Rules (rules.md): the nest goes with the last trick, the bonus to the team with more tricks."""
    if objective == 0:
        a0, a1, tb = M, -M, TB
    elif objective == 1:
        a0, a1, tb = 1, 0, 0
    elif objective == 2:
        a0, a1, tb = 0, -1, 0
    else:
        raise ValueError(f"unknown objective {objective!r}: 0 (points), 1 or 2 (declaring team's points)")
    W[TB_] = tb
    W[A0_], W[A1_] = a0, a1
    W[N0_], W[N1_] = a0 * nest_pts, a1 * nest_pts
    W[B0_], W[B1_] = a0 * bonus, a1 * bonus
    W[NESTP_] = nest_pts
    W[OBJ_] = objective


@njit(cache=True, nogil=True, _nrt=False)
def _normal(W, tmask, ph):
    """One pass over the cards in play (hands and ``tmask``, the current trick's cards; 0 at a trick boundary) and the
    cards played since the search's root (``W[ROOT_]``). Returns (red, sure0, sure1, runlow) (the partition key's
    rank-free part, each hand's multiset of (suit, class), is kept up to date in ``W[SH1_]``, ``W[SH2_]``: `set_shape`):

    * with ``ph`` ≥ 0, the prefix hashes of each suit at ``W[ph:]``: entry (s, k) hashes the holder and class of the k
      highest cards of suit s in the hands (`_psig`: the explicit cards of a partition entry);
    * red: the redundant cards, each equivalent to the next higher card of the same hand (same class, adjacent among
      the cards in play, and no card played since the root between them: such pairs stay adjacent in every
      position above, which `_kvec` needs to keep them on one side of a partition's rank threshold);
    * sure0, sure1: the points each team is sure to take (trumps that only its own team's trumps can beat) and
      runlow, the lowest of those trumps (−1 if none).
    """
    h0, h1, h2, h3 = W[H_ + 0], W[H_ + 1], W[H_ + 2], W[H_ + 3]
    hands = h0 | h1 | h2 | h3
    scan = hands | tmask | W[ROOT_]
    red = 0
    for s in range(4):  # card id 16·suit + rank order: each suit is a 16-bit run of the masks, highest card first
        sh = 16 * s
        if ph >= 0:
            W[ph + 17 * s] = 0
        hs = (hands >> sh) & 0xFFFF
        hs1 = (h1 >> sh) & 0xFFFF
        hs2 = (h2 >> sh) & 0xFFFF
        hs3 = (h3 >> sh) & 0xFFFF
        breaks = (scan >> sh) & 0xFFFF & ~hs  # played since the root, or in the current trick
        p1 = 0
        k = 0
        below = 0  # the positions down to the previous card held
        prev_seat = -1
        prev_cl = -1
        m = hs
        while m:  # no branch on the card's holder: it is not predictable
            j = trailing_zeros(m)
            m &= m - 1
            c = sh + j
            seat = ((hs1 >> j) & 1) + 2 * ((hs2 >> j) & 1) + 3 * ((hs3 >> j) & 1)
            cl = W[CLS + c]
            if ph >= 0:
                p1 += W[ZP_ + ((sh + k) * 4 + seat) * 16 + W[CI + c]]
                W[ph + 17 * s + k + 1] = p1
            k += 1
            bj = np.int64(1) << j
            same = (seat == prev_seat) & (cl == prev_cl) & (breaks & (bj - 1) & ~below == 0)
            red |= (np.int64(1) << c) * same
            below = (bj << 1) - 1
            prev_seat = seat
            prev_cl = cl
    sure0, sure1, runlow = _sure(W, h0 | h2, h1 | h3, hands | tmask)
    return red, sure0, sure1, runlow


@njit(cache=True, nogil=True, _nrt=False)
def set_shape(W):
    """Set ``W[SH1_]``, ``W[SH2_]`` to the two shape hashes of the hands at ``W[H_:]``: the sums over the cards held
    of the card's key by (seat, suit, class) (``ZS_``), i.e. hashes of each hand's multiset of (suit, class), the
    partition key without the ranks. The search keeps them up to date as cards are played (`_play`)."""
    a = np.int64(0)
    b = np.int64(0)
    for seat in range(4):
        m = W[H_ + seat]
        while m:
            c = trailing_zeros(m)
            m &= m - 1
            a += W[ZS_ + 64 * seat + c]
            b += W[ZS_ + 256 + 64 * seat + c]
    W[SH1_] = a
    W[SH2_] = b


@njit(cache=True, nogil=True, _nrt=False)
def _play(W, seat, h, c, sh1, sh2):
    """``seat`` (hand ``h`` before the card, shape hashes ``sh1``, ``sh2``) plays card ``c``: its hand and the shape
    hashes (`set_shape`) become those without the card."""
    W[H_ + seat] = h ^ (np.int64(1) << c)
    W[SH1_] = sh1 - W[ZS_ + 64 * seat + c]
    W[SH2_] = sh2 - W[ZS_ + 256 + 64 * seat + c]


@intrinsic
def _prefetch(typingctx, arr, row):
    """Hint the processor to fetch row ``row`` of the 2-D int64 array ``arr`` into its caches (LLVM's prefetch: read,
    high locality). No effect on results; the row must lie inside the array."""
    sig = types.void(arr, row)

    def codegen(context, builder, signature, args):
        aryty = signature.args[0]
        ary = context.make_array(aryty)(context, builder, args[0])
        zero = context.get_constant(types.intp, 0)
        ptr = cgutils.get_item_pointer2(context, builder, data=ary.data, shape=cgutils.unpack_tuple(builder, ary.shape),
                                        strides=cgutils.unpack_tuple(builder, ary.strides), layout=aryty.layout,
                                        inds=[args[1], zero], wraparound=False, boundscheck=False)
        i8p = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        fnty = ir.FunctionType(ir.VoidType(), [i8p, i32, i32, i32])
        fn = cgutils.get_or_insert_function(builder.module, fnty, "llvm.prefetch.p0i8")
        builder.call(fn, [builder.bitcast(ptr, i8p), ir.Constant(i32, 0), ir.Constant(i32, 3), ir.Constant(i32, 1)])
        return context.get_dummy_value()
    return sig, codegen


@njit(cache=True, nogil=True, _nrt=False)
def _sure(W, team0, team1, inplay):
    """(points N–S are sure of, points E–W are sure of, lowest such trump or −1): the run of top trumps in play
    that one team holds (only that team's trumps can beat them)."""
    t = W[TRUMP_]
    sh = 16 * t
    tin = (inplay >> sh) & 0xFFFF
    if tin == 0:
        return 0, 0, -1
    top = tin & -tin
    mine = (team0 >> sh) & 0xFFFF
    if top & mine == 0:
        mine = (team1 >> sh) & 0xFFFF
        if top & mine == 0:  # a card of the current trick
            return 0, 0, -1
    other = tin & ~mine
    run = tin & ((other & -other) - 1) if other else tin
    pts = 0
    low = -1
    m = run
    while m:
        low = sh + trailing_zeros(m)
        m &= m - 1
        pts += W[PTS + low]
    if top & (team0 >> sh):
        return pts, 0, low
    return 0, pts, low


@njit(cache=True, nogil=True, _nrt=False)
def _key(W, c, led):
    tk = W[TKEY + c]
    if tk:
        return tk
    if W[SUIT + c] == led:
        return W[RKEY + c]
    return 0


@njit(cache=True, nogil=True, _nrt=False)
def _gen(W, legal, ply):
    """Cards of ``legal`` into MV[ply] (card id order); returns the count."""
    n = 0
    m = legal
    while m:
        W[MV_ + ply * 24 + n] = trailing_zeros(m)
        n += 1
        m &= m - 1
    return n


@njit(cache=True, nogil=True, _nrt=False)
def _sort(W, ply, n):
    """Insertion sort of MV[ply, :n] by SC[ply, :n], highest score first."""
    for i in range(1, n):
        c = W[MV_ + ply * 24 + i]
        s = W[SC_ + ply * 24 + i]
        j = i - 1
        while j >= 0 and W[SC_ + ply * 24 + j] < s:
            W[MV_ + ply * 24 + j + 1] = W[MV_ + ply * 24 + j]
            W[SC_ + ply * 24 + j + 1] = W[SC_ + ply * 24 + j]
            j -= 1
        W[MV_ + ply * 24 + j + 1] = c
        W[SC_ + ply * 24 + j + 1] = s


@njit(cache=True, nogil=True, _nrt=False)
def _mix(x, w, k):
    """One round of `_sig`'s hash chain: ``x`` absorbs the word ``w`` (multiply by the odd constant ``k``, xorshift)."""
    x = (x ^ w) * k
    return x ^ ((x >> 29) & np.int64(0x7FFFFFFFF))


_KA = -7046029254386353131
_KB = -4658895280553007687


@njit(cache=True, nogil=True, _nrt=False)
def _base(shape1, shape2, meta):
    """Two independent hashes of a partition key's rank-free part: the hands' (suit, class) multisets (`_normal`)
    and ``meta`` (leader, bonus state, generation). The table bucket is chosen by the first."""
    a = _mix(_mix(np.int64(0x2545F4914F6CDD1D), shape1, _KA), meta, _KA)
    b = _mix(_mix(np.int64(-7723592293110705685), shape2, _KB), meta, _KB)
    return a, b


@njit(cache=True, nogil=True, _nrt=False)
def _psig(W, ph, base1, kv):
    """The 64-bit signature of the partition entry whose explicit cards are the ``kv`` counts (5 bits a suit) of
    highest cards of each suit, in the position whose first `_base` hash and prefix hashes (``W[ph:]``) are given."""
    p = base1
    for s in range(4):
        p += W[ph + 17 * s + min(16, (kv >> (5 * s)) & 31)]
    return _mix(_mix(p, kv + 1, _KA), p >> 31, _KA)


@njit(cache=True, nogil=True, _nrt=False)
def _ruffable(W, seat, s):
    """Whether an opponent of ``seat`` is void in side suit ``s`` and holds a trump (can ruff a lead of ``s``)."""
    if s == W[TRUMP_]:
        return False
    tm = W[SM_ + W[TRUMP_]]
    for o in range(1, 4, 2):
        ho = W[H_ + ((seat + o) & 3)]
        if ho & W[SM_ + s] == 0 and ho & tm:
            return True
    return False


@njit(cache=True, nogil=True, _nrt=False)
def _lead_order(W, seat, bm, ply, n, kl):
    """Order the leads in MV[ply, :n]: the killer ``kl`` (the last lead of this ply, whatever the position, that cut
    off a node where it was not the first card tried; first even before the table's best card, which it beats),
    the table's best card, masters, leads to partner's master, other leads that surely win the trick (partner can
    beat every opponent's card, e.g. by ruffing), low cards; leads that an opponent can ruff come after the others
    (low cards, then masters and leads to partner's master)."""
    inplay = W[H_ + 0] | W[H_ + 1] | W[H_ + 2] | W[H_ + 3]
    partner = W[H_ + (seat ^ 2)]
    for i in range(n):
        c = W[MV_ + ply * 24 + i]
        s = W[SUIT + c]
        top = 16 * s + trailing_zeros((inplay >> (16 * s)) | 0x10000)  # the suit's highest card in play
        p = W[PTS + c]
        ruff = _ruffable(W, seat, s)
        if c == kl:
            sc = 200000
        elif c == bm:
            sc = 100000
        elif c == top:
            sc = (-20000 if ruff else 10000) + p * 10 - W[TKEY + c]  # side-suit masters before the top trump
        elif (partner >> top) & 1:
            sc = (-20000 if ruff else 5000) - p * 10 - W[RKEY + c]
        else:
            tk = W[TKEY + c]
            kc = tk if tk else W[RKEY + c]
            if max(kc, _top_key(W, seat ^ 2, s)) > max(_top_key(W, seat ^ 1, s), _top_key(W, seat ^ 3, s)):
                sc = 3000 + p * 10 - kc  # the trick is surely ours (partner wins it, maybe by ruffing)
            else:
                sc = (-5000 if ruff else 0) - p * 100 - kc
        W[SC_ + ply * 24 + i] = sc
    _sort(W, ply, n)


@njit(cache=True, nogil=True, _nrt=False)
def _killer_first(W, ply, n):
    """Move the ply's killer (`KL_`), if it is among MV[ply, :n], to the front, the others keeping their order."""
    k = W[KL_ + ply] - 1
    for i in range(1, n):
        if W[MV_ + ply * 24 + i] == k:
            for j in range(i, 0, -1):
                W[MV_ + ply * 24 + j] = W[MV_ + ply * 24 + j - 1]
            W[MV_ + ply * 24] = k
            return


@njit(cache=True, nogil=True, _nrt=False)
def _top_key(W, seat, led):
    """The highest trick key among ``seat``'s legal cards in a trick led in ``led`` (0 for off-suit discards, −1 for an
    empty hand): above the current winner's key means ``seat`` can take the trick."""
    m = _legal(W, W[H_ + seat], led)
    top = -1
    while m:
        c = trailing_zeros(m)
        m &= m - 1
        top = max(top, _key(W, c, led))
    return top


@njit(cache=True, nogil=True, _nrt=False)
def _follow_order(W, seat, pos, led, ws, wk, ply, n):
    """Order the cards in MV[ply, :n] for the ``pos``-th card of a trick: beat cheaply, or throw low, or feed points
    when the trick is surely ours (partner's card cannot be beaten, or partner plays last and can beat every card);
    third seat covers partner's beatable card when it can beat the fourth hand; winning cards that the next
    opponent cannot beat come first."""
    partner_wins = (ws & 1) == (seat & 1)
    feed = pos == 3  # the trick is surely ours: points first
    top4 = -1  # second/third seat: the best key the next hand (an opponent) can play; no one after the last seat
    if pos == 1 or pos == 2:
        top4 = _top_key(W, (seat + 1) & 3, led)
    if partner_wins and pos == 2:
        feed = top4 < wk
    elif pos == 1 and _top_key(W, seat ^ 2, led) > max(wk, top4):
        partner_wins = feed = True  # partner, last to play, can beat every card
    for i in range(n):
        c = W[MV_ + ply * 24 + i]
        k = _key(W, c, led)
        p = W[PTS + c]
        if partner_wins:
            sc = p * 100 - k if feed else -p * 100 - k
            if not feed and k > top4:  # third seat covers partner's card so that the fourth hand cannot win
                sc = 100000 + p * 100 - k
        elif k > wk:  # the cheapest card that wins: with points when the next hand cannot beat it
            sc = 100000 + p * 100 - k if k > top4 else 90000 - k
        else:
            sc = -p * 100 - k
        if k == 0:  # a discard (or a card that cannot win): lowest rank of its suit first
            sc -= W[RKEY + c]
        W[SC_ + ply * 24 + i] = sc
    _sort(W, ply, n)


@njit(cache=True, nogil=True, _nrt=False)
def _terminal(W, ws, dtr):
    """Remainder value after the last trick (won by ``ws``, trick difference ``dtr``): nest and bonus, as the
    objective (`set_objective`) values them."""
    r = W[N1_] if ws & 1 else W[N0_]
    if W[BONUS_]:
        if dtr > 0:
            r += W[B0_]
        elif dtr < 0:
            r += W[B1_]
    return r


BOUND = (1 << 30) - 1  # a stored bound at ±BOUND means unbounded


@njit(cache=True, nogil=True, _nrt=False)
def _lane(nt, i):
    """(row, column, shift) of slot ``i``'s 16-bit tag: four to a word, after the ``nt`` entry rows."""
    w = i >> 2
    return nt + (w >> 2), w & 3, 16 * (i & 3)


_LANES_LOW = 0x0001000100010001
_LANES_TAG = -0x003F003F003F0040  # 0xFFC0FFC0FFC0FFC0: the 10 tag bits of each 16-bit lane
_LANES_TOP = -0x7FFF7FFF7FFF8000  # 0x8000800080008000


@njit(cache=True, nogil=True, _nrt=False)
def _tags(W, TT, idx, base2):
    """Mask of the slots of the bucket at ``idx`` whose tag (10 bits of the partition key ``base2``, `_store`)
    matches: four 16-bit tags a word compared at once (a lane is zero after xor and mask when it matches; a
    false match costs only a check of the entry)."""
    row = W[TTMASK_] + 1 + (idx >> 4)
    want = ((base2 >> 54) & 1023) * (_LANES_LOW << 6)
    found = np.int64(0)
    for q in range(BUCKET // 4):
        v = (TT[row + (q >> 2), q & 3] ^ want) & _LANES_TAG
        z = (v - _LANES_LOW) & ~v & _LANES_TOP
        z = ((z >> 15) & 1) | ((z >> 30) & 2) | ((z >> 45) & 4) | ((z >> 60) & 8)
        found |= z << (4 * q)
    return found


@njit(cache=True, nogil=True, _nrt=False)
def _probe(W, TT, idx, ph, base1, base2, alpha, beta):
    """Look the position up in the bucket at ``idx``: every entry whose partition holds it (the entry's signatures
    match `_psig` for the entry's explicit-card counts). Returns (cut, value, lo, hi, rel, best): with cut 1,
    ``value`` is one entry's bound outside (alpha, beta) and ``rel`` that entry's explicit cards (`_kv_mask`);
    else lo, hi are the tightest bounds of the entries found (−INF, INF if none) and rel their explicit cards
    together. best: the normalised best card of the first entry found, else of an entry of the same rank-free key
    whose explicit cards differ (a move-ordering hint only: Buckeye −4 to −7 % nodes), else −1.

    Lockless (threads share the table): a slot holds ``s1 ^ bounds`` in word 0, so a slot whose words come from
    different writes fails the check; the bounds are read once."""
    lo = -INF
    hi = INF
    rel = 0
    best = -1
    found = _tags(W, TT, idx, base2)
    hint = -1
    while found:
        i = idx + trailing_zeros(found)
        found &= found - 1
        if TT[i, 1] != base2:
            continue
        w3 = TT[i, 3]
        d = TT[i, 2]
        kv = (w3 >> 11) & 0xFFFFF
        if TT[i, 0] ^ d != _psig(W, ph, base1, kv):
            if hint < 0:
                hint = (w3 & 127) - 1
            continue
        elo = _unpack((d >> 32) - BOUND - 1)
        ehi = _unpack((d & np.int64(0xFFFFFFFF)) - BOUND - 1)
        m = _kv_mask(W, kv)
        if elo >= beta:
            return 1, elo, lo, hi, m, best
        if ehi <= alpha:
            return 1, ehi, lo, hi, m, best
        rel |= m
        lo = max(lo, elo)
        hi = min(hi, ehi)
        if best < 0:
            best = (w3 & 127) - 1
    if best < 0:
        best = hint
    return 0, np.int64(0), lo, hi, rel, best


@njit(cache=True, nogil=True, _nrt=False)
def _unpack(v):
    """A stored bound back to a value (±BOUND → ±INF)."""
    if v >= BOUND:
        return INF
    if v <= -BOUND:
        return -INF
    return v


@njit(cache=True, nogil=True, _nrt=False)
def _popcount(x):
    """Number of set bits of ``x`` ≥ 0 (below 2⁶²)."""
    x = x - ((x >> 1) & 0x5555555555555555)
    x = (x & 0x3333333333333333) + ((x >> 2) & 0x3333333333333333)
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0F
    return (x * 0x0101010101010101) >> 56 & 0xFF


@njit(cache=True, nogil=True, _nrt=False)
def _kv_mask(W, kv):
    """The lowest explicit card of each suit (a relevance mask, `_kvec`) of the explicit-card counts ``kv``."""
    hands = W[H_ + 0] | W[H_ + 1] | W[H_ + 2] | W[H_ + 3]
    m = 0
    for s in range(4):
        k = (kv >> (5 * s)) & 31
        if k == 0:
            continue
        rs = (hands >> (16 * s)) & 0xFFFF
        for _ in range(k - 1):
            rs &= rs - 1
        if rs:
            m |= np.int64(1) << (16 * s + trailing_zeros(rs))
    return m


@njit(cache=True, nogil=True, _nrt=False)
def _kvec(W, rel, red):
    """Explicit-card counts (5 bits a suit) of a partition entry at a trick boundary, and its relevance mask.

    ``rel``: cards whose rank decided something in the subtree (trick winners that beat a card of their suit,
    sure trumps, explicit cards of the entries used). In each suit every card down to the lowest of them is
    explicit, and further down through redundant cards (``red``, `_normal`) so that no pair of equivalent cards
    merged below is split by the threshold. Returns (kv, mask of the lowest explicit card of each suit)."""
    hands = W[H_ + 0] | W[H_ + 1] | W[H_ + 2] | W[H_ + 3]
    kv = 0
    low = 0
    for s in range(4):
        m = (rel >> (16 * s)) & 0xFFFF
        if m == 0:
            continue
        jt = 63 - leading_zeros(m)  # the lowest relevant card's rank order
        rs = (hands >> (16 * s)) & 0xFFFF
        sel = rs & ((2 << jt) - 1)
        rest = rs & ~((2 << jt) - 1)
        rr = (red >> (16 * s)) & 0xFFFF
        while rest:
            j = trailing_zeros(rest)
            if (rr >> j) & 1 == 0:
                break
            sel |= 1 << j
            rest &= rest - 1
        if sel:
            kv |= _popcount(sel) << (5 * s)
            low |= np.int64(1) << (16 * s + 63 - leading_zeros(sel))
    return kv, low


@njit(cache=True, nogil=True, _nrt=False)
def _store(W, TT, idx, ph, base1, base2, kv, lo, hi, best_c, nrem):
    """Write the partition entry (explicit counts ``kv``) with bounds lo, hi to its slot in the bucket at ``idx``
    or, when new, to one of four slots picked by its signature: a stale one, else the one with fewest tricks left."""
    if W[ABORT_]:
        return
    gen = W[GEN_]
    s1 = _psig(W, ph, base1, kv)
    nt = W[TTMASK_] + 1
    g2 = gen & 3
    found = _tags(W, TT, idx, base2)
    slot = -1
    while found:
        i = idx + trailing_zeros(found)
        found &= found - 1
        if TT[i, 1] == base2 and TT[i, 0] ^ TT[i, 2] == s1:
            slot = i
            break
    if slot < 0:  # a new entry: of four slots picked by its signature, a stale one, else the fewest tricks left
        low = 99
        for q in range(4):
            i = idx + ((s1 >> (6 * q)) & (BUCKET - 1))
            r, c, sh = _lane(nt, i)
            g = (TT[r, c] >> sh) & 0xFFFF
            sc = -1 if g & 3 != g2 else g >> 2 & 15
            if sc < low:
                low = sc
                slot = i
    lo = max(-BOUND, min(BOUND, lo))
    hi = max(-BOUND, min(BOUND, hi))
    data = ((lo + BOUND + 1) << 32) | (hi + BOUND + 1)
    TT[slot, 1] = base2
    TT[slot, 2] = data
    TT[slot, 0] = s1 ^ data  # lockless: a slot torn by another thread's write fails `_probe`'s check
    TT[slot, 3] = (best_c + 1) + 128 * nrem + 2048 * kv + (gen << 31)
    r, c, sh = _lane(nt, slot)
    lane = ((((base2 >> 54) & 1023) << 6) | (nrem << 2) | g2) << sh
    TT[r, c] = (TT[r, c] & ~(np.int64(0xFFFF) << sh)) | lane  # not atomic: a tag lost to a concurrent write only
    # hides its entry (a table miss), and a wrong tag only costs a check


@njit(cache=True, nogil=True, _nrt=False)
def _bounds(W, sure0, sure1, dtr, nrem, rempts):
    """(upper bound, lower bound) of the remainder at a trick boundary (static bound): N–S take at most the points
    out less E–W's sure points, at least their own sure points (the objective values N–S's points at A0 ≥ E–W's
    at A1, `set_objective`); an undecided bonus may go either way (B0 ≥ 0 ≥ B1)."""
    a0 = W[A0_]
    a1 = W[A1_]
    TB = W[TB_]
    pout = rempts + W[NESTP_]
    ub = a0 * (pout - sure1) + a1 * sure1 + TB * nrem
    lb = a0 * sure0 + a1 * (pout - sure0) - TB * nrem
    if W[BONUS_]:
        if dtr > nrem:
            ub += W[B0_]
            lb += W[B0_]
        elif dtr < -nrem:
            ub += W[B1_]
            lb += W[B1_]
        else:
            ub += W[B0_]
            lb += W[B1_]
    return ub, lb


@njit(cache=True, nogil=True, _nrt=False)
def _compact(W, c):
    """Normalised bit (16·suit + rank among the cards in play) of card ``c`` (−1 → −1)."""
    if c < 0:
        return c
    inplay = W[H_ + 0] | W[H_ + 1] | W[H_ + 2] | W[H_ + 3]
    above = (inplay >> (c & 48)) & ((np.int64(1) << (c & 15)) - 1)  # cards of the suit ranked above c
    return (c & 48) + _popcount(above)


@njit(cache=True, nogil=True, _nrt=False)
def _expand(W, nb):
    """The card in play at normalised bit ``nb`` (−1 → −1)."""
    if nb < 0:
        return nb
    inplay = W[H_ + 0] | W[H_ + 1] | W[H_ + 2] | W[H_ + 3]
    m = (inplay >> (nb & 48)) & 0xFFFF
    for _ in range(nb & 15):
        m &= m - 1
    if m == 0:
        return -1
    return (nb & 48) + trailing_zeros(m)


@njit(cache=True, nogil=True, _nrt=False)
def _last_trick(W, seat, dtr):
    """Remainder value of the last trick (each hand holds one card; ``seat`` leads): its points, nest, bonus."""
    c = trailing_zeros(W[H_ + seat])
    led = W[SUIT + c]
    ws = seat
    wk = _key(W, c, led)
    wc = c
    tp = W[PTS + c]
    for i in range(1, 4):
        s = (seat + i) & 3
        c = trailing_zeros(W[H_ + s])
        ws, wk, wc = _beats(W, c, led, s, ws, wk, wc)
        tp += W[PTS + c]
    tv, dtr = _trick(W, ws, tp, dtr)
    W[REL_] = _trick_rel(W, W[H_ + 0] | W[H_ + 1] | W[H_ + 2] | W[H_ + 3], wc)
    return tv + _terminal(W, ws, dtr)


@njit(cache=True, nogil=True, _nrt=False)
def _trick_rel(W, tm, wc):
    """Relevance (`_kvec`) of a finished trick (cards ``tm``) won by card ``wc``: ``wc`` when it beat a card of its own
    effective suit (its rank decided the trick), else nothing (it won by suit)."""
    cb = np.int64(1) << wc
    if tm & W[SM_ + W[SUIT + wc]] & ~cb:
        return cb
    return np.int64(0)


@njit(cache=True, nogil=True, _nrt=False)
def _legal(W, h, led):
    """The cards of hand ``h`` that may follow a lead in ``led``: that suit (and privileged cards), else any card."""
    f = h & W[SM_ + led]
    return (f | (h & W[PRIV_])) if f else h


@njit(cache=True, nogil=True, _nrt=False)
def _trick(W, ws, tp, dtr):
    """(N–S value of a trick won by ``ws`` with ``tp`` points as the objective values it (`set_objective`; the
    points objective: ±(points × M + tie-break)), trick difference after)."""
    if ws & 1:
        return tp * W[A1_] - W[TB_], dtr - 1
    return tp * W[A0_] + W[TB_], dtr + 1


@njit(cache=True, nogil=True, _nrt=False)
def _beats(W, c, led, seat, ws, wk, wc):
    """(winner, winning key, winning card) of a trick led in ``led`` and won so far by ``ws`` with key ``wk`` and card
    ``wc`` after ``seat`` plays card ``c``."""
    k = _key(W, c, led)
    if k > wk:
        return seat, k, c
    return ws, wk, wc


@njit(cache=True, nogil=True, _nrt=False)
def _backup(maxi, v, best, a, b):
    """A child's value ``v`` into its node's (best, alpha, beta): the maximiser (``maxi``) raises best and alpha,
    the minimiser lowers best and beta; the node is cut off once alpha ≥ beta."""
    if maxi:
        if v > best:
            best = v
            if v > a:
                a = v
    elif v < best:
        best = v
        if v < b:
            b = v
    return best, a, b


@njit(cache=True, nogil=True, _nrt=False)
def _two_tricks(W, seat, dtr, alpha, beta):
    """Fail-soft remainder value (N–S view) with two tricks left and ``seat`` to lead: the next trick's lines by
    plain alpha-beta over the four hands' (at most two) cards, the last trick by `_last_trick`. No table, no move
    ordering, no card merging (but a hand's second card is skipped when `_same_below` says it is worth the first):
    at most 16 lines, cheaper than the general search's bookkeeping. Sets ``W[REL_]`` to the relevance of the lines
    the value depends on (all of a node's lines, or the one that cut it off)."""
    s1 = (seat + 1) & 3
    s2 = (seat + 2) & 3
    s3 = (seat + 3) & 3
    h0 = W[H_ + seat]
    h1 = W[H_ + s1]
    h2 = W[H_ + s2]
    h3 = W[H_ + s3]
    max0 = (seat & 1) == 0
    best0 = -INF if max0 else INF
    r0 = np.int64(0)  # relevance at each level: every line searched, or the line that cut off
    a0 = alpha
    b0 = beta
    m0 = h0
    while m0:
        c0 = trailing_zeros(m0)
        m0 &= m0 - 1
        W[H_ + seat] = h0 ^ (np.int64(1) << c0)
        led = W[SUIT + c0]
        k0 = _key(W, c0, led)
        best1 = INF if max0 else -INF  # second seat: the other team
        a1 = a0
        b1 = b0
        r1 = np.int64(0)
        m1 = _legal(W, h1, led)
        while m1:
            c1 = trailing_zeros(m1)
            m1 &= m1 - 1
            W[H_ + s1] = h1 ^ (np.int64(1) << c1)
            ws, wk, wc = _beats(W, c1, led, s1, seat, k0, c0)
            best2 = -INF if max0 else INF  # third seat: the leader's partner
            a2 = a1
            b2 = b1
            r2 = np.int64(0)
            m2 = _legal(W, h2, led)
            while m2:
                c2 = trailing_zeros(m2)
                m2 &= m2 - 1
                W[H_ + s2] = h2 ^ (np.int64(1) << c2)
                ws2, wk2, wc2 = _beats(W, c2, led, s2, ws, wk, wc)
                best3 = INF if max0 else -INF  # fourth seat: the other team
                a3 = a2
                b3 = b2
                r3 = np.int64(0)
                m3 = _legal(W, h3, led)
                while m3:
                    c3 = trailing_zeros(m3)
                    m3 &= m3 - 1
                    W[H_ + s3] = h3 ^ (np.int64(1) << c3)
                    W[NODES_] += 1
                    w, _wk, wc3 = _beats(W, c3, led, s3, ws2, wk2, wc2)
                    tv, d2 = _trick(W, w, W[PTS + c0] + W[PTS + c1] + W[PTS + c2] + W[PTS + c3], dtr)
                    v = tv + _last_trick(W, w, d2)
                    tm = (np.int64(1) << c0) | (np.int64(1) << c1) | (np.int64(1) << c2) | (np.int64(1) << c3)
                    rl = W[REL_] | _trick_rel(W, tm, wc3)
                    W[H_ + s3] = h3
                    best3, a3, b3 = _backup(not max0, v, best3, a3, b3)
                    if a3 >= b3:
                        r3 = rl
                        break
                    r3 |= rl
                    m3 &= ~_same_below(W, h3, c3, rl)
                W[H_ + s2] = h2
                best2, a2, b2 = _backup(max0, best3, best2, a2, b2)
                if a2 >= b2:
                    r2 = r3
                    break
                r2 |= r3
                m2 &= ~_same_below(W, h2, c2, r3)
            W[H_ + s1] = h1
            best1, a1, b1 = _backup(not max0, best2, best1, a1, b1)
            if a1 >= b1:
                r1 = r2
                break
            r1 |= r2
            m1 &= ~_same_below(W, h1, c1, r2)
        W[H_ + seat] = h0
        best0, a0, b0 = _backup(max0, best1, best0, a0, b0)
        if a0 >= b0:
            r0 = r1
            break
        r0 |= r1
        m0 &= ~_same_below(W, h0, c0, r1)
    W[REL_] = r0
    return best0


@njit(cache=True, nogil=True, _nrt=False)
def _search(W, TT, seat, pos, led, ws, wk, wc, tp, tmask, dtr, nrem, rempts, red, alpha, beta):
    """Fail-soft remainder value (N–S view) with ``seat`` to play the ``pos``-th card (0 = lead) of the trick; sets
    ``W[REL_]`` to the cards whose ranks the value depends on (partition search, `_kvec`).

    Lead (pos 0): ``nrem`` ≥ 1 tricks left, ``rempts`` points in the hands; table probe, static bound, ordered
    leads. Follow (pos 1..3): trick led in ``led``, won so far by ``ws`` with key ``wk`` and card ``wc``, ``tp``
    points and cards ``tmask`` in it, ``red`` the redundant cards found at its lead. One self-recursive function
    (numba caches it).
    """
    W[NODES_] += 1
    zero = W[ZERO_]
    W[REL_] = zero
    if W[NODES_] >= W[LIMIT_]:
        W[ABORT_] = 1
        return zero  # an int64 zero that is not a literal: literal arguments break numba's cache of recursion
    one = zero + 1
    TB = W[TB_]
    a1 = alpha
    b1 = beta
    idx = 0
    ph = 0
    base1 = base2 = zero
    bm = -1
    lo = -INF
    hi = INF
    rel = zero
    h = W[H_ + seat]
    ply = (W[HAND_SIZE_] - nrem) * 4 + pos
    if pos == 0 and nrem == 1:
        return _last_trick(W, seat, dtr)
    if pos == 0 and nrem == 2:
        return _two_tricks(W, seat, dtr, alpha, beta)
    if pos == 0:
        if not W[BONUS_]:  # cheap check first (no scan, no table probe): all the points still out to one side
            pout = rempts + W[NESTP_]
            base = W[A0_] * pout + TB * nrem
            if base <= alpha:
                return base
            base = W[A1_] * pout - TB * nrem
            if base >= beta:
                return base
        d = dtr
        if W[BONUS_]:
            if dtr > nrem:
                d = 99
            elif dtr < -nrem:
                d = -99
            meta = (W[GEN_] << 16) + (W[OBJ_] << 11) + seat + 4 * (d + 128) + 1
        else:
            meta = (W[GEN_] << 16) + (W[OBJ_] << 11) + seat + 1
        ph = PH_ + PH_STRIDE * nrem
        base1, base2 = _base(W[SH1_], W[SH2_], meta)
        idx = base1 & W[TTMASK_] & ~(BUCKET - 1)
        tagrow = W[TTMASK_] + 1 + (idx >> 4)
        _prefetch(TT, tagrow)  # the bucket's tags (two cache lines) load while `_normal` scans the hands
        _prefetch(TT, tagrow + 2)
        red, sure0, sure1, runlow = _normal(W, zero, ph)
        cut, v, lo, hi, rel, bnb = _probe(W, TT, idx, ph, base1, base2, alpha, beta)
        if cut:
            W[REL_] = rel
            return v
        bm = _expand(W, bnb)
        if lo > alpha:
            alpha = lo
        if hi < beta:
            beta = hi
        if W[NESTP_]:  # a team with trumps against none can keep one to the last trick: the nest is its
            tm = W[SM_ + W[TRUMP_]]
            t0 = (W[H_ + 0] | W[H_ + 2]) & tm
            t1 = (W[H_ + 1] | W[H_ + 3]) & tm
            if t0 and not t1:
                sure0 += W[NESTP_]
            elif t1 and not t0:
                sure1 += W[NESTP_]
        ub, lb = _bounds(W, sure0, sure1, dtr, nrem, rempts)
        if ub <= alpha or lb >= beta:
            if runlow >= 0 and sure0 + sure1 > 0:
                rel |= np.int64(1) << runlow
            W[REL_] = rel
            return ub if ub <= alpha else lb
        n = _gen(W, h & ~red, ply)
        if n > 1:
            _lead_order(W, seat, bm, ply, n, W[KL_ + ply] - 1)
    else:
        n = _gen(W, _legal(W, h, led) & ~red, ply)
        if n > 1:
            _follow_order(W, seat, pos, led, ws, wk, ply, n)
            if pos == 2:
                _killer_first(W, ply, n)
    nxt = (seat + 1) & 3
    maxi = (seat & 1) == 0
    best = -INF if maxi else INF
    best_c = -1
    rel0 = rel  # the table entries used
    skip = zero  # cards shown to be worth no more than a card already searched (`_same_below`)
    sh1 = W[SH1_]
    sh2 = W[SH2_]
    for i in range(n):
        c = W[MV_ + ply * 24 + i]
        b = np.int64(1) << c
        if skip & b:
            continue
        _play(W, seat, h, c, sh1, sh2)
        p = tp + W[PTS + c]
        if pos == 0:
            s = W[SUIT + c]
            v = _search(W, TT, nxt, one, s, seat, _key(W, c, s), c, W[PTS + c], b, dtr, nrem, rempts, red, alpha, beta)
            crel = W[REL_]
        else:
            w2, k2, wc2 = _beats(W, c, led, seat, ws, wk, wc)
            if pos == 3:
                tv, d2 = _trick(W, w2, p, dtr)
                crel = _trick_rel(W, tmask | b, wc2)
                if nrem == 1:
                    v = tv + _terminal(W, w2, d2)
                else:
                    v = tv + _search(W, TT, w2, zero, zero, zero, zero, zero, zero, zero, d2, nrem - one, rempts - p, zero, alpha - tv, beta - tv)
                    crel |= W[REL_]
            else:
                v = _search(W, TT, nxt, pos + 1, led, w2, k2, wc2, p, tmask | b, dtr, nrem, rempts, red, alpha, beta)
                crel = W[REL_]
        nb, alpha, beta = _backup(maxi, v, best, alpha, beta)
        if nb != best:
            best = nb
            best_c = c
        if alpha >= beta:  # a cutoff: the bound holds wherever this card's line does
            if i > 0 and (pos == 0 or pos == 2):  # a cutoff that the ordering did not foresee: this ply's killer
                W[KL_ + ply] = c + 1
            rel = rel0 | crel
            break
        rel |= crel
        skip |= _same_below(W, h, c, crel)
    W[H_ + seat] = h
    W[SH1_] = sh1
    W[SH2_] = sh2
    if pos == 0:
        if best >= b1:
            if best > lo:
                lo = best
        elif best <= a1:
            if best < hi:
                hi = best
        else:
            lo = best
            hi = best
        kv, rel = _kvec(W, rel, red)
        _store(W, TT, idx, ph, base1, base2, kv, lo, hi, _compact(W, best_c), nrem)
    W[REL_] = rel
    return best


@njit(cache=True, nogil=True, _nrt=False)
def _same_below(W, h, c, crel):
    """The other cards of hand ``h`` that card ``c`` (just searched, its line's relevance ``crel``) stands for: of
    its effective suit and class, and with ``c`` below the lowest card of the suit whose rank decided that line.
    Such a card only swaps places with ``c`` inside one partition of the line's proof (`_kvec`), so its value is
    the same bound: searching it cannot change the node (DDS's "lowest winning rank" pruning, with classes)."""
    sh = c & 48
    m = (crel >> sh) & 0xFFFF
    jt = 63 - leading_zeros(m) if m else -1  # the lowest relevant card's rank order in the suit
    if (c & 15) <= jt:
        return np.int64(0)
    above = (np.int64(2) << jt) - 1 if jt >= 0 else np.int64(0)  # the suit's cards down to that card
    cand = (h >> sh) & 0xFFFF & ~above & ~(np.int64(1) << (c & 15))
    out = np.int64(0)
    cl = W[CLS + c]
    while cand:
        j = trailing_zeros(cand)
        cand &= cand - 1
        if W[CLS + sh + j] == cl:
            out |= np.int64(1) << (sh + j)
    return out


@njit(cache=True, nogil=True, _nrt=False)
def after_card(W, TT, seat, pos, led, ws, wk, wc, tp, tmask, dtr, nrem, rempts, c, alpha, beta):
    """Fail-soft remainder value (N–S view) after ``seat`` plays card ``c`` as the ``pos``-th card (0..3) of the
    current trick (led suit ``led``, winner so far ``ws`` with key ``wk`` and card ``wc``, ``tp`` points and cards
    ``tmask`` in it),
    ``dtr`` the trick difference, ``nrem`` tricks left including this one, ``rempts`` points in the hands and the
    trick. ``W`` holds the hands with ``c`` still in ``seat``'s; it is restored on return.

    Arguments are int64: ``W``/``TT`` the arrays of the module doc, seats 0..3 (N E S W), suits 0..3, card ids,
    masks over card ids, values in the objective's units (`set_objective`; the points objective: points × M +
    trick tie-break, see `dd`). Returns an int
    (the value if it lies strictly inside (alpha, beta), else a bound on the same side). Raises nothing; when the
    node limit is reached ``W[ABORT_]`` is 1 and the value is meaningless (the caller raises `dd.SearchLimit`).
    Implements the play rules of rules.md (following suit, privileged cards, trick winner, nest to the last trick,
    majority bonus) through the tables in ``W``."""
    b = np.int64(1) << c
    h = W[H_ + seat]
    sh1 = W[SH1_]
    sh2 = W[SH2_]
    _play(W, seat, h, c, sh1, sh2)
    if pos == 0:
        led = W[SUIT + c]
        ws = seat
        wk = _key(W, c, led)
        wc = c
    else:
        ws, wk, wc = _beats(W, c, led, seat, ws, wk, wc)
    tp += W[PTS + c]
    tmask |= b
    if pos == 3:
        tv, dtr = _trick(W, ws, tp, dtr)
        if nrem == 1:
            v = tv + _terminal(W, ws, dtr)
        else:
            zero = W[ZERO_]
            v = tv + _search(W, TT, ws, zero, zero, zero, zero, zero, zero, zero, dtr, nrem - 1, rempts - tp, zero, alpha - tv, beta - tv)
    else:
        red = _normal(W, tmask, -1)[0]
        v = _search(W, TT, (seat + 1) & 3, pos + 1, led, ws, wk, wc, tp, tmask, dtr, nrem, rempts, red, alpha, beta)
    W[H_ + seat] = h
    W[SH1_] = sh1
    W[SH2_] = sh2
    return v
