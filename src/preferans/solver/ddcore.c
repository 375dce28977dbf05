/* Double-dummy solver core for Preferans.  See ddcore.h.
 *
 * Search: zero-window ("can the counted seat take at least t tricks?")
 * alpha-beta over single card plays, driven at the root by an MTD(f)-style
 * loop over t.  Ideas borrowed from bridge (DDS) and Skat solvers:
 *   - bitboard hands (one 32-bit mask per seat);
 *   - one card per run of equivalent cards (adjacent once cards out of play
 *     are removed; cards on the table still count as in play);
 *   - a transposition table probed at trick boundaries, keyed by the hands in
 *     relative ranks (per suit, the owners of the remaining cards in order),
 *     storing a lower and an upper bound and the best lead;
 *   - quick-trick bounds for the side on lead and sure trump tricks (contracts);
 *     exact cut-offs when the counted seat is below (or above) every other card
 *     of its suits (misère, all-pass);
 *   - leads ordered by the table's best lead, two killer leads per seat and
 *     tricks left, then trick heuristics; second and third hand by trick
 *     outcome on bitboards, generated lazily (most such nodes cut at once).
 * The table never needs clearing: keys are independent of the deal, so
 * entries from earlier solves stay valid (an age field steers replacement).
 */
#include "ddcore.h"

#include <stdio.h>
#ifdef __BMI2__
#include <immintrin.h>
#endif
#include <stdlib.h>
#include <string.h>

/* The search is compiled twice: here for any x86-64 (or other) CPU, and in ddcore_bmi2.c,
 * which includes this file with DD_VARIANT set, for CPUs with BMI1/BMI2/LZCNT (the table key
 * by PEXT, bit scans by TZCNT/LZCNT: 11 % fewer instructions).  Each copy's entry points are
 * named DD_ENTRY(dd_solve) and so on; this (generic) copy also holds the public functions,
 * which call the copy dd_new chose for the solver (a solver keeps its copy: the two copies'
 * table keys differ). */
#define DD_CAT2(a, b) a##_##b
#define DD_CAT(a, b) DD_CAT2(a, b)
#ifdef DD_VARIANT
#define DD_ENTRY(name) DD_CAT(name, DD_VARIANT)
#else
#define DD_ENTRY(name) DD_CAT(name, generic)
#if defined(__GNUC__) && !defined(__clang__) && defined(__x86_64__)
#define DD_HAVE_BMI2 1
#endif
#endif

#define SUITMASK(s) (0xFFu << ((s) * 8))
#define POPC(x) __builtin_popcount(x)
#define HIBIT(x) (31 - __builtin_clz(x))
#define LOBIT(x) (__builtin_ctz(x))

/* ------------------------------------------------------------------ tables */

static uint8_t cmp8[256][256]; /* cmp8[P][M]: M (subset of P) in P-relative bits */
static uint8_t sel8[256][8];   /* sel8[P][r]: position of the r-th lowest bit of P */
static uint32_t rmaj[4][256];  /* suit s's byte -> rank-major bits (bit rank * 4 + suit) */
static uint8_t bpair[512];     /* [1 << n | L]: n cards, bit i of L set when the i-th lowest is
                                  "lo": the most pairs of a higher non-lo and a lower lo card */
static int tables_ready = 0;

static void init_tables(void)
{
    if (tables_ready) return;
    for (int st = 0; st < 4; st++)
        for (int b = 0; b < 256; b++) {
            uint32_t m = 0;
            for (int r = 0; r < 8; r++)
                if (b & (1 << r)) m |= 1u << (r * 4 + st);
            rmaj[st][b] = m;
        }
    for (int n = 0; n <= 8; n++)
        for (int L = 0; L < (1 << n); L++) {
            /* scanning upwards, each higher card takes an unmatched lower lo card */
            int open = 0, m = 0;
            for (int i = 0; i < n; i++) {
                if (L & (1 << i)) open++;
                else if (open) {
                    open--;
                    m++;
                }
            }
            bpair[(1 << n) | L] = (uint8_t)m;
        }
    for (int p = 0; p < 256; p++) {
        int r = 0;
        for (int b = 0; b < 8; b++)
            if (p & (1 << b)) sel8[p][r++] = (uint8_t)b;
        for (; r < 8; r++) sel8[p][r] = 0;
        for (int m = 0; m < 256; m++) {
            if ((m & p) != m) { cmp8[p][m] = 0; continue; }
            int out = 0, k = 0;
            for (int b = 0; b < 8; b++) {
                if (p & (1 << b)) {
                    if (m & (1 << b)) out |= 1 << k;
                    k++;
                }
            }
            cmp8[p][m] = (uint8_t)out;
        }
    }
    tables_ready = 1;
}

static const uint8_t NEXT[3] = {1, 2, 0};
static const uint8_t SEAT[3][3] = {{0, 1, 2}, {1, 2, 0}, {2, 0, 1}};

/* ------------------------------------------------------- transposition table */

/* A bucket is one cache line holding four 16-byte entries.  The key: seats 0 and 1 in
 * relative ranks and, in the third word, the suit lengths in play (low nibbles) with the
 * settings (leader, trump, counted seat, side to maximise, talon tricks to come) spread over
 * the high nibbles. */
#define BUCKET 4
typedef struct {
    uint32_t k[3]; /* all zero = empty */
    uint8_t bounds; /* lower bound | upper bound << 4 */
    uint8_t best;   /* best lead: suit << 3 | relative rank, or NOBEST */
    uint8_t age;    /* generation of the last solve that used the entry */
    uint8_t depth;  /* tricks left */
} tt_entry;
typedef struct {
    tt_entry e[BUCKET];
} tt_bucket;
_Static_assert(sizeof(tt_bucket) == 64, "a bucket is one cache line");

/* The low 16 bits of x into the high nibbles of the four bytes. */
static inline uint32_t nibble_spread(uint32_t x)
{
    return ((x & 0xFu) << 4) | ((x & 0xF0u) << 8) | ((x & 0xF00u) << 12) | ((x & 0xF000u) << 16);
}

#define NOBEST 0xFF

struct dd_solver {
    tt_bucket *tt;
    size_t nbuckets; /* a power of two */
    int hshift;      /* 64 - log2(nbuckets) */
    uint64_t nodes;
    uint8_t gen;
    uint8_t variant; /* 1: the BMI2 copy of the search (fixed for the solver's life) */
    /* per-solve settings */
    int trump;
    int counted;
    int cmax; /* 1 when the counted seat maximises */
    int mode;
    int ntalon;
    int8_t talon[DD_MAX_TALON];
    uint32_t metax; /* trump, counted seat, maximising side: the key's high nibbles */
    uint8_t maxseat[3]; /* 1 for the seats on the maximising side */
    int8_t killer[3][DD_MAX_HAND + 1][DD_MAX_HAND + 1][2]; /* last two leads that cut, by
                                                               seat, tricks left, target */
};

typedef struct {
    uint32_t h[3];
    uint32_t inplay; /* hands plus table cards: fixed during a trick */
    int8_t table[3];
    uint8_t leader, n, tpos;
    int8_t ts; /* suit of the talon-led trick in play, -1 if none */
    int8_t wcard; /* current winning card of the trick */
    uint8_t wseat;
} node_t;

#ifndef DD_VARIANT
static size_t buckets_for(size_t bytes)
{
    size_t n = 1;
    while (n * 2 * sizeof(tt_bucket) <= bytes) n *= 2;
    if (n < 64) n = 64;
    return n;
}

static int use_bmi2(void);

dd_solver *dd_new(size_t table_bytes)
{
    init_tables();
    dd_solver *s = calloc(1, sizeof *s);
    if (!s) return NULL;
    s->variant = (uint8_t)use_bmi2();
    if (dd_resize(s, table_bytes) != 0) {
        free(s);
        return NULL;
    }
    return s;
}

int dd_resize(dd_solver *s, size_t table_bytes)
{
    size_t nb = buckets_for(table_bytes);
    tt_bucket *tt = aligned_alloc(64, nb * sizeof(tt_bucket));
    if (!tt) return -1;
    memset(tt, 0, nb * sizeof(tt_bucket));
    free(s->tt);
    s->tt = tt;
    s->nbuckets = nb;
    s->hshift = 64 - __builtin_ctzll((unsigned long long)nb);
    s->gen = 1;
    return 0;
}

size_t dd_table_bytes(const dd_solver *s) { return s->nbuckets * sizeof(tt_bucket); }

void dd_clear(dd_solver *s) { memset(s->tt, 0, s->nbuckets * sizeof(tt_bucket)); }

void dd_free(dd_solver *s)
{
    if (!s) return;
    free(s->tt);
    free(s);
}

uint64_t dd_nodes(const dd_solver *s) { return s->nodes; }
void dd_reset_nodes(dd_solver *s) { s->nodes = 0; }
#endif

static inline size_t tt_index(const dd_solver *S, const uint32_t k[3])
{
    /* multiplicative hashing: the top bits of the product */
    uint64_t x = (((uint64_t)k[0] | ((uint64_t)k[1] << 32)) ^ ((uint64_t)k[2] * 0xC2B2AE3D27D4EB4Full)) *
                 0x9E3779B97F4A7C15ull;
    return (size_t)(x >> S->hshift);
}

/* ------------------------------------------------------------- card logic */

/* One card (the lowest) of each run of equivalent cards of M, P = cards in play. */
static inline uint32_t reps(uint32_t M, uint32_t P)
{
    uint32_t G = ~P & 0x7F7F7F7Fu;
    uint32_t D = M | G;
    uint32_t bottoms = D & ~((D << 1) & 0xFEFEFEFEu);
    uint32_t land = G + (bottoms & G);
    return M & (bottoms | land);
}

static inline uint32_t legal_moves(const dd_solver *S, const node_t *nd, uint32_t hand, int ts)
{
    uint32_t f;
    if (ts >= 0) {
        f = hand & SUITMASK(ts);
        return f ? f : hand;
    }
    if (nd->n == 0) return hand;
    f = hand & SUITMASK(nd->table[0] >> 3);
    if (f) return f;
    if (S->trump != DD_NOTRUMP) {
        f = hand & SUITMASK(S->trump);
        if (f) return f;
    }
    return hand;
}

/* Does card c beat the current winner w?  s0 = suit of the first card. */
static inline int beats(const dd_solver *S, int c, int w, int ts)
{
    int sc = c >> 3, sw = w >> 3;
    if (ts >= 0) {
        if (sc == ts) return sw != ts || c > w;
        if (sw == ts) return 0;
        return sc == sw && c > w;
    }
    if (sc == sw) return c > w;
    return sc == S->trump;
}

/* ------------------------------------------------------------ quick tricks */

/* Tricks the leader can cash at once with its own top cards (contract). */
static int quick_tricks(const dd_solver *S, const uint32_t h[3], int leader, int *qtrump)
{
    uint32_t L = h[leader], A = h[NEXT[leader]], B = h[NEXT[NEXT[leader]]];
    int tr = S->trump;
    int aruff = 0, bruff = 0;
    if (tr != DD_NOTRUMP) {
        aruff = (A & SUITMASK(tr)) != 0;
        bruff = (B & SUITMASK(tr)) != 0;
    }
    int total = 0;
    *qtrump = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t Ls = (L >> (8 * s)) & 0xFF;
        if (!Ls) continue;
        uint32_t As = (A >> (8 * s)) & 0xFF, Bs = (B >> (8 * s)) & 0xFF;
        uint32_t Os = As | Bs;
        int k;
        int la = POPC(As), lb = POPC(Bs);
        if (!Os) {
            k = POPC(Ls);
        } else {
            k = POPC(Ls >> (HIBIT(Os) + 1));
            if (k >= la && k >= lb) k = POPC(Ls);
        }
        if (s != tr) {
            if (aruff && k > la) k = la;
            if (bruff && k > lb) k = lb;
        }
        if (s == tr) *qtrump = k;
        total += k;
    }
    return total;
}

/* Tricks seat x takes from here whatever the others do, when they hold no trumps (or there are
 * none).  x's masters (cards above every other card of their suit) win whenever their suit is
 * led or x ruffs with one, and once x is on lead it cashes them all; so x loses a master only
 * by discarding it, when it is void in the suit led, holds no trump and holds nothing but
 * masters.  The others can lead suits in which x holds no master at most
 * L = sum(max(a_s, b_s)) times (both must follow suit), and the first N of those tricks take
 * x's N other cards.  So x takes at least M - max(0, L - N) (used for x not on lead; on lead
 * it takes all M, which the quick tricks already count).
 * (A suit whose masters x has all discarded could be led too; x, seeing every card, keeps a
 * master in each suit the next leader can lead as long as it can, and forcing it to give
 * that up costs the others more cards of the suits counted in L.  The bound was checked
 * against exact values on 152,500 positions (108,500 built to stress it, 52,500 of them every deal
 * of five ending templates) with no case above the value; tests/test_solver.py keeps a set
 * of such endings against the reference.) */
static inline int sure_tricks(const uint32_t h[3], int x, int T, uint32_t tmask)
{
    const uint32_t X = h[x], A = h[NEXT[x]], B = h[NEXT[NEXT[x]]];
    if ((A | B) & tmask) return 0;
    int M = 0, L = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t xs = (X >> (8 * s)) & 0xFF, as = (A >> (8 * s)) & 0xFF, bs = (B >> (8 * s)) & 0xFF;
        uint32_t os = as | bs;
        int m = !os ? POPC(xs) : POPC(xs >> (HIBIT(os) + 1));
        if (m) {
            M += m;
        } else {
            int la = POPC(as), lb = POPC(bs);
            L += la > lb ? la : lb;
        }
    }
    if (!M) return 0;
    int lost = L - (T - M);
    return lost > 0 ? (M > lost ? M - lost : 0) : M;
}

/* The most disjoint pairs (h, l), h in hi above l in lo (two disjoint card bytes of one
 * suit), from a table indexed by the owners of the cards in rank order (see init_tables). */
static inline int beat_pairs(uint32_t hi, uint32_t lo)
{
    const uint32_t p = hi | lo;
    return bpair[(1u << POPC(p)) | cmp8[p][lo]];
}

/* ----------------------------------------------------------- move ordering */

typedef struct {
    int8_t card;
    int16_t score;
} move_t;

/* A card mask in rank-major order (bit rank * 4 + suit): its lowest bit is the lowest
 * rank, lower suits first. */
static inline uint32_t rank_major(uint32_t m)
{
    return rmaj[0][m & 0xFF] | rmaj[1][(m >> 8) & 0xFF] | rmaj[2][(m >> 16) & 0xFF] |
           rmaj[3][m >> 24];
}

static inline int rm_card(int b) { return ((b & 3) << 3) | (b >> 2); }

/* Cards that beat w (the trick's current winner); ts = talon suit or -1. */
static inline uint32_t beat_mask(const dd_solver *S, int w, int ts)
{
    int sw = w >> 3;
    int x = ts >= 0 ? ts : (S->trump != DD_NOTRUMP ? S->trump : -1);
    uint32_t m = SUITMASK(sw) & ~((2u << w) - 1);
    if (x >= 0 && x != sw) m |= SUITMASK(x);
    return m;
}

/* Second and third hand: good cards (the trick goes the mover's way) before bad ones,
 * cheap ones first.  Fills up to four groups of cards to be tried in turn, each by rank,
 * lowest first (contract: cheapest first) or highest first (the modes about avoiding
 * tricks); returns the number of groups. */
static inline __attribute__((always_inline)) int follow_groups(const dd_solver *S, const node_t *nd, int mover, uint32_t mv, int ts,
                         uint32_t grp[4], uint32_t *wins)
{
    const int counted = S->counted;
    const int ismax = S->maxseat[mover];
    const uint32_t W = mv & beat_mask(S, nd->wcard, ts);
    *wins = W;
    const int gw = (nd->wseat == counted) == ismax; /* is the current winner good for us */
    /* winning is good in a contract, bad in the modes about avoiding tricks */
    const uint32_t good = (S->cmax ? W : 0) | (gw ? mv & ~W : 0);
    if (!S->cmax) {
        grp[0] = good;
        grp[1] = mv & ~good;
        return 2;
    }
    if (nd->n == 2) {
        const uint32_t tm = S->trump != DD_NOTRUMP ? SUITMASK(S->trump) : 0;
        grp[0] = good & ~tm;
        grp[1] = good & tm;
        grp[2] = mv & ~good & ~tm;
        grp[3] = mv & ~good & tm;
        return 4;
    }
    /* second hand: winning with a top card, then low cards, then winning cheaply */
    const uint32_t others = nd->h[NEXT[mover]] | nd->h[NEXT[NEXT[mover]]];
    uint32_t top = 0;
    for (int s = 0; s < 4; s++) {
        uint32_t ws = (W >> (8 * s)) & 0xFF;
        if (!ws) continue;
        uint32_t os = (others >> (8 * s)) & 0xFF;
        top |= (os ? ws & ~((2u << HIBIT(os)) - 1) : ws) << (8 * s);
    }
    grp[0] = top;
    grp[1] = mv & ~W;
    grp[2] = W & ~top;
    return 3;
}

/* The next card of a group (see follow_groups): *m holds the group as a card mask, or,
 * once it spans several suits, in rank-major order with *rm set. */
static inline int next_card(uint32_t *m, int *rm, int asc)
{
    uint32_t x = *m;
    if (!*rm && (x & ~SUITMASK(LOBIT(x) >> 3))) {
        x = rank_major(x);
        *rm = 1;
    }
    int b = asc ? LOBIT(x) : HIBIT(x);
    *m = x & ~(1u << b);
    return *rm ? rm_card(b) : b;
}

/* The same order as a list (root move scoring). */
static int order_follows(const dd_solver *S, const node_t *nd, int mover, uint32_t mv, int ts,
                         move_t *out)
{
    uint32_t grp[4], wins;
    int ng = follow_groups(S, nd, mover, mv, ts, grp, &wins), cnt = 0;
    for (int g = 0; g < ng; g++) {
        uint32_t m = grp[g];
        int rm = 0;
        while (m) out[cnt++].card = (int8_t)next_card(&m, &rm, S->cmax);
    }
    return cnt;
}

/* Leads by trick heuristics, best first.  (search_lead tries the table's best lead and the
 * killer leads before it calls this: the last two leads that refuted at the same seat and
 * number of tricks left, and in contracts the same target, within one solve; a lead that
 * worked in one line of play often works in its neighbours.  Measured: 3-7 % fewer nodes in
 * contracts and misère, 10-35 % in all-pass; keying by the target too saves another 2 % in
 * contracts but costs in all-pass.  Killers for second and third hand made things worse:
 * their order by trick outcome is already right 95-99 % of the time.) */
static int order_leads(const dd_solver *S, const node_t *nd, int mover, uint32_t mv, move_t *out)
{
    int cnt = 0;
    const int counted = S->counted;
    const int avoid = S->mode != DD_CONTRACT; /* modes about not taking tricks */
    const uint32_t others = nd->h[NEXT[mover]] | nd->h[NEXT[NEXT[mover]]];
    const int tr = S->trump;
    while (mv) {
        int c = LOBIT(mv);
        mv &= mv - 1;
        int s = c >> 3, r = c & 7;
        int score;
        {
            uint32_t os = (others >> (8 * s)) & 0xFF;
            int top = !os || (c & 7) > HIBIT(os);
            if (!avoid) {
                /* contract: the leader's team wants tricks */
                if (top) {
                    int ruffable = 0;
                    if (tr != DD_NOTRUMP && s != tr) {
                        for (int k = 1; k <= 2; k++) {
                            uint32_t o = nd->h[SEAT[mover][k]];
                            if (!(o & SUITMASK(s)) && (o & SUITMASK(tr))) ruffable = 1;
                        }
                    }
                    score = ruffable ? 20 : 100 + (s == tr ? 10 : 0);
                } else {
                    /* lead low from a suit where partner holds the top, else low */
                    score = 40 - r;
                    int p1 = SEAT[mover][1], p2 = SEAT[mover][2];
                    int partner = -1;
                    if (((p1 == counted) == (mover == counted))) partner = p1;
                    else if (((p2 == counted) == (mover == counted))) partner = p2;
                    if (partner >= 0 && os) {
                        uint32_t ps = (nd->h[partner] >> (8 * s)) & 0xFF;
                        if (ps && HIBIT(ps) == HIBIT(os)) score = 60 - r;
                        /* partner ruffs, the declarer cannot overruff */
                        if (!ps && tr != DD_NOTRUMP && s != tr &&
                            (nd->h[partner] & SUITMASK(tr)) &&
                            ((nd->h[counted] & SUITMASK(s)) || !(nd->h[counted] & SUITMASK(tr))))
                            score = 90 - r;
                    }
                    uint32_t ms = (nd->h[mover] >> (8 * s)) & 0xFF;
                    score -= POPC(ms); /* short suits first */
                }
            } else {
                /* avoiding: the counted seat wants to lose the trick */
                if (mover == counted) {
                    /* a card a defender must beat (he holds only higher cards of the suit)
                     * loses for sure: shed the highest such first; else low cards */
                    uint32_t a = (nd->h[NEXT[mover]] >> (8 * s)) & 0xFF;
                    uint32_t b = (nd->h[NEXT[NEXT[mover]]] >> (8 * s)) & 0xFF;
                    if ((a && LOBIT(a) > r) || (b && LOBIT(b) > r))
                        score = 100 + r;
                    else
                        score = top ? -r : 50 - r;
                } else {
                    /* defenders: lead where the counted seat must win: low cards */
                    uint32_t cs = (nd->h[counted] >> (8 * s)) & 0xFF;
                    if (cs) {
                        int partner = NEXT[mover] == counted ? NEXT[NEXT[mover]] : NEXT[mover];
                        uint32_t ps = (nd->h[partner] >> (8 * s)) & 0xFF;
                        int low = LOBIT(cs);
                        /* forced: the counted seat's lowest card beats ours and partner's */
                        if (low > r && (!ps || LOBIT(ps) < low)) score = 100 - r;
                        else score = 50 - r + (POPC(cs) == 1 ? 10 : 0);
                    } else {
                        score = 10 - r;
                    }
                }
            }
        }
        /* insertion by score, highest first */
        int i = cnt++;
        while (i > 0 && out[i - 1].score < score) {
            out[i] = out[i - 1];
            i--;
        }
        out[i].card = (int8_t)c;
        out[i].score = (int16_t)score;
    }
    return cnt;
}

/* ------------------------------------------------------------------ search */

/* Per-byte popcounts: byte s of the result = cards of suit s in x. */
static inline uint32_t suit_lengths(uint32_t x)
{
    x = x - ((x >> 1) & 0x55555555u);
    x = (x & 0x33333333u) + ((x >> 2) & 0x33333333u);
    return (x + (x >> 4)) & 0x0F0F0F0Fu;
}

/* The table key: seats 0 and 1 in relative ranks (per suit, ranks among the cards in play)
 * and the number of cards in play of each suit (seat 2 holds the rest). */
static inline void make_key(const node_t *nd, uint32_t k[3])
{
    const uint32_t P = nd->h[0] | nd->h[1] | nd->h[2];
#ifdef __BMI2__
    /* the same information packed: with the suit lengths the packed bits decode uniquely */
    k[0] = _pext_u32(nd->h[0], P);
    k[1] = _pext_u32(nd->h[1], P);
#else
    uint32_t a = 0, b = 0;
    for (int s = 0; s < 4; s++) {
        const uint8_t *row = cmp8[(P >> (8 * s)) & 0xFF];
        a |= (uint32_t)row[(nd->h[0] >> (8 * s)) & 0xFF] << (8 * s);
        b |= (uint32_t)row[(nd->h[1] >> (8 * s)) & 0xFF] << (8 * s);
    }
    k[0] = a;
    k[1] = b;
#endif
    k[2] = suit_lengths(P);
}

static inline int trick_winner_seat(const dd_solver *S, const node_t *nd, int c, int ts, int mover)
{
    return beats(S, c, nd->wcard, ts) ? mover : nd->wseat;
}

#ifdef DD_STATS
/* counters of a statistics build (-DDD_STATS), shared by both copies of the search */
#ifdef DD_VARIANT
#define DD_STAT_STORAGE extern
#else
#define DD_STAT_STORAGE
#endif
DD_STAT_STORAGE long dd_cut_at[3][5];
DD_STAT_STORAGE long dd_nodes_at[11][3];
DD_STAT_STORAGE long dd_lead_stat[16];
#define LSTAT(i) (dd_lead_stat[i]++)
#else
#define LSTAT(i) ((void)0)
#endif
static int search_lead(dd_solver *S, const node_t *nd, int target);
static int search_follow(dd_solver *S, const node_t *nd, int target, int mover);

/* Second or third hand plays c; win: c beats the trick's current winner. */
static inline int play_follow(dd_solver *S, const node_t *nd, int mover, int c, int ts,
                              int target, int win)
{
    node_t ch = *nd;
    ch.h[mover] &= ~(1u << c);
    const int ws = win ? mover : nd->wseat;
    if (nd->n == 1) {
        ch.table[1] = (int8_t)c;
        ch.n = 2;
        if (win) ch.wcard = (int8_t)c;
        ch.wseat = (uint8_t)ws;
        return search_follow(S, &ch, target, NEXT[mover]);
    }
    /* trick complete */
    int won = ws == S->counted;
    ch.n = 0;
    if (ts >= 0) {
        ch.tpos = nd->tpos + 1; /* the first hand leads every talon trick and the one after */
        ch.ts = (int8_t)(ch.tpos < S->ntalon ? S->talon[ch.tpos] : -1);
    } else {
        ch.leader = (uint8_t)ws;
    }
    ch.inplay = ch.h[0] | ch.h[1] | ch.h[2];
    return search_lead(S, &ch, target - won);
}

static inline int play(dd_solver *S, const node_t *nd, int mover, int c, int ts, int target)
{
    if (nd->n == 0) {
        node_t ch = *nd;
        ch.h[mover] &= ~(1u << c);
        ch.table[0] = (int8_t)c;
        ch.n = 1;
        ch.wcard = (int8_t)c;
        ch.wseat = (uint8_t)mover;
        return search_follow(S, &ch, target, NEXT[mover]);
    }
    return play_follow(S, nd, mover, c, ts, target, beats(S, c, nd->wcard, ts));
}

/* Stores bounds for key; hit is the entry the probe found (NULL: none, and no entry for key
 * can have appeared since: deeper nodes have other suit lengths). */
static void tt_store(dd_solver *S, tt_bucket *bk, tt_entry *hit, const uint32_t key[3], int lb,
                     int ub, int best, int depth)
{
    if (hit && hit->k[0] == key[0] && hit->k[1] == key[1] && hit->k[2] == key[2]) {
        int olb = hit->bounds & 15, oub = hit->bounds >> 4;
        if (olb > lb) lb = olb;
        if (oub < ub) ub = oub;
        hit->bounds = (uint8_t)(lb | (ub << 4));
        if (best != NOBEST) hit->best = (uint8_t)best;
        hit->age = S->gen;
        return;
    }
    /* a new entry replaces an empty one, else one from an earlier solve, else the one with the
     * fewest tricks left */
    int vi = 0, vscore = 1 << 30;
    for (int i = 0; i < BUCKET; i++) {
        const tt_entry *e = &bk->e[i];
        int sc = !e->k[2] ? -1 : (e->age == S->gen ? 64 : 0) + e->depth;
        if (sc < vscore) {
            vscore = sc;
            vi = i;
        }
    }
    tt_entry *e = &bk->e[vi];
    e->k[0] = key[0];
    e->k[1] = key[1];
    e->k[2] = key[2];
    e->bounds = (uint8_t)(lb | (ub << 4));
    e->best = (uint8_t)best;
    e->age = S->gen;
    e->depth = (uint8_t)depth;
}

/* The moves of a lead node the table and the bounds left open; bucket is NULL when the node
 * has no table entry (talon tricks further ahead). */
static __attribute__((noinline)) int lead_moves(dd_solver *S, const node_t *nd, int target, int T,
                                                int hint, tt_bucket *bucket, tt_entry *hit,
                                                const uint32_t key[3])
{
    const int mover = nd->leader;
    const uint32_t hand = nd->h[mover];
    const int ts = nd->ts;
    const int use_tt = bucket != NULL;
    uint32_t legal = legal_moves(S, nd, hand, ts);
    uint32_t mv = legal & reps(hand, nd->inplay);
    const int ismax = S->maxseat[mover];
    LSTAT(hint >= 0 ? 5 : 6);
    int result = !ismax, bestc = -1;
    /* the table's best lead and the killer leads first, before the others are scored (most
     * nodes that cut do so at the first lead) */
    int8_t *killers = S->killer[mover][T][S->cmax ? target : 0];
    int first[3], nfirst = 0;
    if (hint >= 0 && (mv >> hint & 1)) first[nfirst++] = hint;
    for (int k = 0; k < 2; k++) {
        int c = killers[k];
        if (c >= 0 && c != hint && (mv >> c & 1)) first[nfirst++] = c;
    }
    uint32_t rest = mv;
    for (int i = 0; i < nfirst; i++) {
        int c = first[i];
        rest &= ~(1u << c);
        if (play(S, nd, mover, c, ts, target) == ismax) {
            result = ismax;
            bestc = c;
            break;
        }
    }
    if (bestc < 0 && rest) {
        move_t moves[DD_MAX_HAND];
        int cnt = order_leads(S, nd, mover, rest, moves);
        for (int i = 0; i < cnt; i++) {
            int c = moves[i].card;
            if (play(S, nd, mover, c, ts, target) == ismax) {
                result = ismax;
                bestc = c;
                break;
            }
        }
    }
    if (bestc >= 0 && killers[0] != bestc) {
        killers[1] = killers[0];
        killers[0] = (int8_t)bestc;
    }
#ifdef DD_STATS
    if (bestc < 0) dd_cut_at[0][4]++;
#endif
    if (use_tt) {
        int best = NOBEST;
        if (bestc >= 0) {
            int s = bestc >> 3;
            uint32_t ps = (nd->inplay >> (8 * s)) & 0xFF;
            best = (s << 3) | POPC(ps & ((1u << (bestc & 7)) - 1));
        }
        tt_store(S, bucket, hit, key, result ? target : 0, result ? T : target - 1, best, T);
    }
    return result;
}

/* A node at the start of a trick: bounds, the table, then every lead. */
static int search_lead(dd_solver *S, const node_t *nd, int target)
{
    const int mover = nd->leader;
    const uint32_t hand = nd->h[mover];
    const int T = POPC(hand);
    if (target <= 0) return 1;
    if (target > T) return 0;
    S->nodes++;
#ifdef DD_STATS
    dd_nodes_at[T][0]++;
#endif
    const int ts = nd->ts;
    int hint = -1;
    uint32_t key[3] = {0, 0, 0};
    uint32_t ext = 0;
    int use_tt = 0;
    tt_bucket *bucket = NULL;
    tt_entry *hit = NULL;
    {
        if (T == 1) {
            /* last trick: everything is forced */
            int c0 = LOBIT(nd->h[nd->leader]);
            int s1 = NEXT[nd->leader], s2 = NEXT[s1];
            int c1 = LOBIT(nd->h[s1]), c2 = LOBIT(nd->h[s2]);
            int w = c0, ws = nd->leader;
            if (beats(S, c1, w, ts)) { w = c1; ws = s1; }
            if (beats(S, c2, w, ts)) { ws = s2; }
            LSTAT(0);
            return ws == S->counted; /* target is 1 here */
        }
        if (ts >= 0) {
            int rem = S->ntalon - nd->tpos;
            if (rem <= 3) {
                ext = (uint8_t)(rem << 6);
                for (int i = 0; i < rem; i++) ext |= (uint8_t)(S->talon[nd->tpos + i] << (2 * i));
                use_tt = 1;
            }
        } else {
            use_tt = 1;
        }
        if (use_tt) {
            make_key(nd, key);
            key[2] |= S->metax | ((uint32_t)nd->leader << 4);
            if (ext) key[2] |= nibble_spread(ext << 8);
            bucket = S->tt + tt_index(S, key);
        }
        if (use_tt) {
            const uint64_t k01 = (uint64_t)key[0] | ((uint64_t)key[1] << 32);
            for (int i = 0; i < BUCKET; i++) {
                tt_entry *e = &bucket->e[i];
                uint64_t e01;
                memcpy(&e01, e->k, 8);
                if (e01 == k01 && e->k[2] == key[2]) {
                    hit = e;
                    int lb = e->bounds & 15, ub = e->bounds >> 4;
                    e->age = S->gen;
                    if (lb >= target) { LSTAT(3); return 1; }
                    if (ub < target) { LSTAT(3); return 0; }
                    LSTAT(7);
                    if (e->best != NOBEST) {
                        int s = e->best >> 3, rr = e->best & 7;
                        uint32_t ps = (nd->inplay >> (8 * s)) & 0xFF;
                        if (ps) hint = s * 8 + sel8[ps][rr];
                    }
                    break;
                }
            }
        }
        if (S->mode == DD_CONTRACT) {
            const int decl = nd->leader == S->counted;
            if (!decl) {
                /* sure tricks by masters (see sure_tricks) */
                const uint32_t tm = S->trump != DD_NOTRUMP ? SUITMASK(S->trump) : 0;
                if (sure_tricks(nd->h, S->counted, T, tm) >= target) {
                    LSTAT(4);
                    return 1;
                }
            }
            int qt;
            int q = quick_tricks(S, nd->h, nd->leader, &qt);
            if (decl) {
                if (q >= target) { LSTAT(1); return 1; }
            } else if (T - q < target) {
                LSTAT(1);
                return 0;
            }
            if (S->trump != DD_NOTRUMP) {
                /* Every trump a player holds is played to some trick, and a trump that does
                 * not win is beaten in its trick by a higher trump of another player, one per
                 * trick: the declarer takes at least as many trump tricks as it holds trumps,
                 * less the most defender trumps that can each be matched to a lower declarer
                 * trump; the defenders at least as many as one defender holds, less the most
                 * declarer trumps matched to lower ones of his.  The side on lead first cashes
                 * its quick tricks outside trumps (the others follow suit, so no trump moves). */
                const int sh = 8 * S->trump;
                int c = S->counted;
                uint32_t dt = (nd->h[c] >> sh) & 0xFF, at = (nd->h[NEXT[c]] >> sh) & 0xFF,
                         bt = (nd->h[NEXT[NEXT[c]]] >> sh) & 0xFF;
                int side = q - qt;
                if (POPC(dt) - beat_pairs(at | bt, dt) + (decl ? side : 0) >= target) {
                    LSTAT(2);
                    return 1;
                }
                int sa = POPC(at) - beat_pairs(dt, at), sb = POPC(bt) - beat_pairs(dt, bt);
                if (T - (sa > sb ? sa : sb) - (decl ? 0 : side) < target) { LSTAT(2); return 0; }
            }
        }
    }

    if (S->mode != DD_CONTRACT && ts < 0) {
        /* no trumps, no talon: when every card of the counted seat is below all the
         * other seats' cards of its suit, it never wins a trick (whoever leads, someone
         * must beat its card, and it never gets the lead); when every card is above them
         * all and it is on lead, or the leader must lead one of its suits, it wins every
         * trick from here */
        const int c = S->counted;
        const uint32_t C = nd->h[c], D = nd->h[NEXT[c]] | nd->h[NEXT[NEXT[c]]];
        int below = 1, above = 1;
        uint32_t csuits = 0;
        for (int s = 0; s < 4; s++) {
            uint32_t cs = (C >> (8 * s)) & 0xFF, ds = (D >> (8 * s)) & 0xFF;
            if (!cs) continue;
            csuits |= SUITMASK(s);
            if (!ds) {
                below = 0;
            } else {
                if (HIBIT(cs) > LOBIT(ds)) below = 0;
                if (LOBIT(cs) < HIBIT(ds)) above = 0;
            }
        }
        if (below) return 0; /* target >= 1 here */
        if (above && (mover == c || !(hand & ~csuits))) return 1; /* target <= T */
    }
    return lead_moves(S, nd, target, T, hint, use_tt ? bucket : NULL, hit, key);
}

/* Second or third hand: no table entry; moves generated lazily (most nodes cut at the
 * first). */
static int search_follow(dd_solver *S, const node_t *nd, int target, int mover)
{
    node_t third; /* the third hand's node after a forced second-hand card */
    for (;;) {
        /* 1 <= target <= tricks left here: the lead node (or search()) checked it */
        const uint32_t hand = nd->h[mover];
        S->nodes++;
#ifdef DD_STATS
        dd_nodes_at[POPC(hand)][nd->n]++;
#endif
        const int ts = nd->ts;
        /* third hand: the losing card on the table leaves play with this trick, so cards that
         * only it separates are equivalent (the winning card stays in, as the divide) */
        const uint32_t P =
            nd->n == 2 ? nd->inplay & ~(1u << (nd->table[0] + nd->table[1] - nd->wcard))
                       : nd->inplay;
        const uint32_t mv = legal_moves(S, nd, hand, ts) & reps(hand, P);
        if (!(mv & (mv - 1))) {
            LSTAT(8 + nd->n);
            const int c = LOBIT(mv);
            if (nd->n == 2) return play(S, nd, mover, c, ts, target);
            /* a forced second-hand card: go on with the third hand here */
            const int ws = trick_winner_seat(S, nd, c, ts, mover);
            third = *nd;
            third.h[mover] &= ~(1u << c);
            third.table[1] = (int8_t)c;
            third.n = 2;
            if (ws == mover) third.wcard = (int8_t)c;
            third.wseat = (uint8_t)ws;
            nd = &third;
            mover = NEXT[mover];
            continue;
        }
        LSTAT(10 + nd->n);
        const int ismax = S->maxseat[mover];
        uint32_t grp[4], wins;
        int ng = follow_groups(S, nd, mover, mv, ts, grp, &wins);
        const int asc = S->cmax;
        for (int g = 0; g < ng; g++) {
            uint32_t m = grp[g];
            if (!m) continue;
            if (!(m & ~SUITMASK(LOBIT(m) >> 3))) {
                /* one suit: by rank */
                while (m) {
                    const int c = asc ? LOBIT(m) : HIBIT(m);
                    m &= ~(1u << c);
                    if (play_follow(S, nd, mover, c, ts, target, (wins >> c) & 1) == ismax)
                        return ismax;
                }
            } else {
                /* several suits: by rank across the suits, lower suits first */
                uint32_t x = rank_major(m);
                while (x) {
                    const int b = asc ? LOBIT(x) : HIBIT(x);
                    x &= ~(1u << b);
                    const int c = rm_card(b);
                    if (play_follow(S, nd, mover, c, ts, target, (wins >> c) & 1) == ismax)
                        return ismax;
                }
            }
        }
        return !ismax;
    }
}

static int search(dd_solver *S, const node_t *nd, int target)
{
    if (!nd->n) return search_lead(S, nd, target);
    if (target <= 0) return 1;
    if (target > POPC(nd->h[SEAT[nd->leader][nd->n]])) return 0;
    return search_follow(S, nd, target, SEAT[nd->leader][nd->n]);
}

#ifndef DD_VARIANT
/* ------------------------------------------------------------- validation */

static const char *RANKS[8] = {"7", "8", "9", "10", "J", "Q", "K", "A"};
static const char SUITS[4] = {'S', 'C', 'D', 'H'};

static void card_name(int c, char *buf)
{
    snprintf(buf, 4, "%s%c", RANKS[c & 7], SUITS[c >> 3]);
}

int dd_validate(const dd_position *p, char *msg, size_t msglen)
{
    char a[8], b[8];
    if (p->mode < 0 || p->mode > 2) {
        snprintf(msg, msglen, "unknown mode %d", p->mode);
        return -1;
    }
    const char *mname = p->mode == DD_CONTRACT ? "contract" : p->mode == DD_MISERE ? "misère" : "all-pass";
    if (p->leader < 0 || p->leader > 2) {
        snprintf(msg, msglen, "leader must be seat 0, 1 or 2, not %d", p->leader);
        return -1;
    }
    if (p->side < 0 || p->side > 2) {
        snprintf(msg, msglen, "%s must be seat 0, 1 or 2, not %d",
                 p->mode == DD_ALLPASS ? "the all-pass player" : "the declarer", p->side);
        return -1;
    }
    if (p->trump != DD_NOTRUMP && (p->trump < 0 || p->trump > 3)) {
        snprintf(msg, msglen, "trump must be a suit 0..3 or none, not %d", p->trump);
        return -1;
    }
    if (p->mode != DD_CONTRACT && p->trump != DD_NOTRUMP) {
        snprintf(msg, msglen, "trump given in %s mode (misère and all-pass have no trump)", mname);
        return -1;
    }
    if (p->ntalon < 0 || p->ntalon > DD_MAX_TALON) {
        snprintf(msg, msglen, "too many talon leads (%d)", p->ntalon);
        return -1;
    }
    if (p->ntalon > 0 && p->mode != DD_ALLPASS) {
        snprintf(msg, msglen, "talon leads given in %s mode (only all-pass has them)", mname);
        return -1;
    }
    for (int i = 0; i < p->ntalon; i++) {
        if (p->talon[i] < 0 || p->talon[i] > 3) {
            snprintf(msg, msglen, "talon lead %d is not a suit", p->talon[i]);
            return -1;
        }
    }
    if (p->ntrick < 0 || p->ntrick > 2) {
        snprintf(msg, msglen,
                 p->ntrick == 3 ? "the trick on the table is complete (3 cards): clear it and give "
                                  "the next leader"
                                : "the trick on the table has %d cards (at most 2)",
                 p->ntrick);
        return -1;
    }
    uint32_t seen = 0;
    for (int i = 0; i < 3; i++) {
        int cnt = POPC(p->hands[i]);
        if (cnt > DD_MAX_HAND) {
            snprintf(msg, msglen, "seat %d holds %d cards (at most %d)", i, cnt, DD_MAX_HAND);
            return -1;
        }
        uint32_t dup = seen & p->hands[i];
        if (dup) {
            card_name(LOBIT(dup), a);
            snprintf(msg, msglen, "card %s is in two hands", a);
            return -1;
        }
        seen |= p->hands[i];
    }
    for (int i = 0; i < p->ntrick; i++) {
        int c = p->trick[i];
        if (c < 0 || c > 31) {
            snprintf(msg, msglen, "card index %d on the table is not a card", c);
            return -1;
        }
        card_name(c, a);
        if (seen & (1u << c)) {
            for (int j = 0; j < 3; j++)
                if (p->hands[j] & (1u << c)) {
                    snprintf(msg, msglen, "card %s is both on the table and in seat %d's hand", a, j);
                    return -1;
                }
            snprintf(msg, msglen, "card %s is on the table twice", a);
            return -1;
        }
        seen |= 1u << c;
    }
    /* hand sizes: seats that played to this trick hold one card fewer */
    int mover = (p->leader + p->ntrick) % 3;
    int base = POPC(p->hands[mover]);
    if (p->ntrick == 0) {
        int s0 = POPC(p->hands[0]), s1 = POPC(p->hands[1]), s2 = POPC(p->hands[2]);
        if (s0 != s1 || s1 != s2) {
            snprintf(msg, msglen,
                     "hands of unequal size for a complete trick (%d, %d, %d cards): the trick on "
                     "the table is missing or the wrong seat is to move",
                     s0, s1, s2);
            return -1;
        }
    } else {
        if (base == 0) {
            snprintf(msg, msglen, "seat %d is to move (leader %d, %d card(s) on the table) but "
                     "holds no cards: wrong side to move", mover, p->leader, p->ntrick);
            return -1;
        }
        for (int k = 0; k < 3; k++) {
            int seat = (p->leader + k) % 3;
            int want = k < p->ntrick ? base - 1 : base;
            int have = POPC(p->hands[seat]);
            if (have != want) {
                snprintf(msg, msglen,
                         "seat %d holds %d cards but should hold %d: with leader %d and %d "
                         "card(s) on the table seat %d is to move, so the hand sizes do not fit "
                         "(wrong side to move or a wrong trick)",
                         seat, have, want, p->leader, p->ntrick, mover);
                return -1;
            }
        }
    }
    if (p->ntalon > 0) {
        int tricks = POPC(p->hands[mover]);
        if (p->ntalon > tricks) {
            snprintf(msg, msglen, "%d talon leads but only %d tricks left", p->ntalon, tricks);
            return -1;
        }
    }
    /* the cards on the table must have been legal plays */
    for (int i = 1; i < p->ntrick; i++) {
        int seat = (p->leader + i) % 3;
        int c = p->trick[i];
        uint32_t h = p->hands[seat];
        card_name(c, a);
        if (p->ntalon > 0) {
            int ts = p->talon[0];
            if ((c >> 3) != ts && (h & SUITMASK(ts))) {
                snprintf(msg, msglen, "seat %d played %s to a talon-led %c trick while holding %c",
                         seat, a, SUITS[ts], SUITS[ts]);
                return -1;
            }
            continue;
        }
        int led = p->trick[0] >> 3;
        if ((c >> 3) != led) {
            card_name(p->trick[0], b);
            if (h & SUITMASK(led)) {
                snprintf(msg, msglen, "seat %d played %s on %s while holding %c", seat, a, b,
                         SUITS[led]);
                return -1;
            }
            if (p->trump != DD_NOTRUMP && (c >> 3) != p->trump && (h & SUITMASK(p->trump))) {
                snprintf(msg, msglen, "seat %d played %s on %s while void and holding trumps",
                         seat, a, b);
                return -1;
            }
        }
    }
    if (p->ntalon > 0 && p->ntrick > 0) {
        int c = p->trick[0], ts = p->talon[0];
        uint32_t h = p->hands[p->leader];
        if ((c >> 3) != ts && (h & SUITMASK(ts))) {
            card_name(c, a);
            snprintf(msg, msglen, "seat %d led %s to a talon-led %c trick while holding %c",
                     p->leader, a, SUITS[ts], SUITS[ts]);
            return -1;
        }
    }
    return 0;
}

#endif

/* ------------------------------------------------------------ root drivers */

static void setup(dd_solver *S, const dd_position *p, node_t *nd)
{
    S->trump = p->mode == DD_CONTRACT ? p->trump : DD_NOTRUMP;
    S->counted = p->side;
    S->cmax = p->mode == DD_CONTRACT;
    for (int i = 0; i < 3; i++) S->maxseat[i] = (uint8_t)((i == p->side) == S->cmax);
    S->mode = p->mode;
    S->ntalon = p->ntalon;
    for (int i = 0; i < p->ntalon; i++) S->talon[i] = p->talon[i];
    S->metax = nibble_spread((uint32_t)((S->trump << 2) | (S->counted << 5) | (S->cmax << 7)));
    S->gen = (uint8_t)(S->gen == 255 ? 1 : S->gen + 1);
    memset(S->killer, -1, sizeof S->killer);

    memset(nd, 0, sizeof *nd);
    for (int i = 0; i < 3; i++) nd->h[i] = p->hands[i];
    nd->leader = (uint8_t)p->leader;
    nd->n = (uint8_t)p->ntrick;
    nd->tpos = 0;
    nd->ts = (int8_t)(p->ntalon > 0 ? p->talon[0] : -1);
    nd->inplay = p->hands[0] | p->hands[1] | p->hands[2];
    int ts = p->ntalon > 0 ? p->talon[0] : -1;
    for (int i = 0; i < p->ntrick; i++) {
        int c = p->trick[i];
        nd->table[i] = (int8_t)c;
        nd->inplay |= 1u << c;
        int seat = SEAT[p->leader][i];
        if (i == 0 || beats(S, c, nd->wcard, ts)) {
            nd->wcard = (int8_t)c;
            nd->wseat = (uint8_t)seat;
        }
    }
}

static int tricks_left(const node_t *nd)
{
    return POPC(nd->h[SEAT[nd->leader][nd->n]]);
}

#ifdef DD_STATS
DD_STAT_STORAGE long dd_stat_iters, dd_stat_guess_err;
#endif
/* Exact value by a sequence of zero-window tests, starting at guess. */
static int mtd(dd_solver *S, const node_t *nd, int lo, int hi, int guess)
{
    /* invariant: lo <= value <= hi */
    if (guess < lo) guess = lo;
    if (guess > hi) guess = hi;
    while (lo < hi) {
        int t = guess;
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
#ifdef DD_STATS
        dd_stat_iters++;
#endif
        if (search(S, nd, t)) {
            lo = t;
            guess = t + 1;
        } else {
            hi = t - 1;
            guess = t - 1;
        }
    }
    return lo;
}

/* The MTD(f) start.  Misère and all-pass: 0 (testing above the value costs far more than
 * testing below it; estimates of the declarer's tricks measured worse).  Contracts: the
 * counted seat's top cards and long trumps, plus one (measured: 6 % fewer nodes than the
 * bare estimate on the bench positions, the same on a second set). */
static int first_guess(const dd_solver *S, const node_t *nd)
{
    if (S->mode != DD_CONTRACT) return 0;
    int est = 0;
    uint32_t me = nd->h[S->counted];
    uint32_t ot = nd->h[NEXT[S->counted]] | nd->h[NEXT[NEXT[S->counted]]];
    for (int s = 0; s < 4; s++) {
        uint32_t ms = (me >> (8 * s)) & 0xFF, os = (ot >> (8 * s)) & 0xFF;
        if (!ms) continue;
        if (s == S->trump) {
            est += POPC(ms) > POPC(os) / 2 ? POPC(ms) - POPC(os) / 2 : 0;
        }
        int hi = os ? HIBIT(os) : -1;
        if (s != S->trump) est += POPC(ms >> (hi + 1));
    }
    return est + 1;
}

int DD_ENTRY(dd_solve)(dd_solver *S, const dd_position *p)
{
    node_t nd;
    setup(S, p, &nd);
    int T = tricks_left(&nd);
    if (T == 0) return 0;
    return mtd(S, &nd, 0, T, first_guess(S, &nd));
}

int DD_ENTRY(dd_test)(dd_solver *S, const dd_position *p, int target)
{
    node_t nd;
    setup(S, p, &nd);
    return search(S, &nd, target);
}

int DD_ENTRY(dd_takes_none)(dd_solver *S, const dd_position *p)
{
    node_t nd;
    setup(S, p, &nd);
    if (tricks_left(&nd) == 0) return 1;
    return !search(S, &nd, 1);
}

/* value after the move c: exact, within [lo, hi] */
/* The value after the move c, exact, known to lie in [lo, hi]: zero-window tests from guess. */
static int move_value(dd_solver *S, const node_t *nd, int c, int lo, int hi, int guess)
{
    const int mover = SEAT[nd->leader][nd->n];
    const int ts = nd->tpos < S->ntalon ? S->talon[nd->tpos] : -1;
    while (lo < hi) {
        int t = guess;
        if (t <= lo) t = lo + 1;
        if (t > hi) t = hi;
        if (play(S, nd, mover, c, ts, t)) {
            lo = t;
            guess = t + 1;
        } else {
            hi = t - 1;
            guess = t - 1;
        }
    }
    return lo;
}

int DD_ENTRY(dd_solve_moves)(dd_solver *S, const dd_position *p, int8_t *cards, int8_t *values)
{
    node_t nd;
    setup(S, p, &nd);
    int T = tricks_left(&nd);
    if (T == 0) return 0;
    const int mover = SEAT[nd.leader][nd.n];
    const int ts = nd.tpos < S->ntalon ? S->talon[nd.tpos] : -1;
    uint32_t hand = nd.h[mover];
    uint32_t legal = legal_moves(S, &nd, hand, ts);
    uint32_t rp = legal & reps(hand, nd.inplay);
    move_t moves[DD_MAX_HAND];
    int cnt = nd.n == 0 ? order_leads(S, &nd, mover, rp, moves)
                        : order_follows(S, &nd, mover, rp, ts, moves);
    int8_t repval[32];
    memset(repval, -1, sizeof repval);
    /* no separate value solve: each move from the best value so far (the first from the
     * estimate), in the order the search would try them */
    const int ismax = S->maxseat[mover];
    int best = -1;
    for (int i = 0; i < cnt; i++) {
        int c = moves[i].card;
        int val = move_value(S, &nd, c, 0, T, best < 0 ? first_guess(S, &nd) : best);
        repval[c] = (int8_t)val;
        if (best < 0 || (ismax ? val > best : val < best)) best = val;
    }
    int k = 0;
    uint32_t l = legal;
    while (l) {
        int c = LOBIT(l);
        l &= l - 1;
        /* the representative is the highest representative at or below c in its suit */
        uint32_t below = rp & SUITMASK(c >> 3) & ((c == 31) ? 0xFFFFFFFFu : ((1u << (c + 1)) - 1));
        int r = HIBIT(below);
        cards[k] = (int8_t)c;
        values[k] = repval[r];
        k++;
    }
    return k;
}

void DD_ENTRY(dd_init)(void) { init_tables(); }

/* ---------------------------------------------------------- the public calls */

#ifndef DD_VARIANT
#ifdef DD_HAVE_BMI2
void dd_init_bmi2(void);
int dd_solve_bmi2(dd_solver *S, const dd_position *p);
int dd_test_bmi2(dd_solver *S, const dd_position *p, int target);
int dd_takes_none_bmi2(dd_solver *S, const dd_position *p);
int dd_solve_moves_bmi2(dd_solver *S, const dd_position *p, int8_t *cards, int8_t *values);

/* The BMI2 copy when the CPU has BMI1, BMI2 and LZCNT (every x86-64 CPU since 2013-2017) and
 * PREFERANS_SOLVER_GENERIC is not set. */
static int use_bmi2(void)
{
    const char *env = getenv("PREFERANS_SOLVER_GENERIC");
    if (env && *env && *env != '0') return 0;
    if (!(__builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2") &&
          __builtin_cpu_supports("abm")))
        return 0;
    dd_init_bmi2();
    return 1;
}
#define DD_PICK(S, call, args) ((S)->variant ? call##_bmi2 args : call##_generic args)
#else
static int use_bmi2(void) { return 0; }
#define DD_PICK(S, call, args) (call##_generic args)
#endif

int dd_variant(const dd_solver *S) { return S->variant; }

int dd_solve(dd_solver *S, const dd_position *p) { return DD_PICK(S, dd_solve, (S, p)); }

int dd_test(dd_solver *S, const dd_position *p, int target)
{
    return DD_PICK(S, dd_test, (S, p, target));
}

int dd_takes_none(dd_solver *S, const dd_position *p) { return DD_PICK(S, dd_takes_none, (S, p)); }

int dd_solve_moves(dd_solver *S, const dd_position *p, int8_t *cards, int8_t *values)
{
    return DD_PICK(S, dd_solve_moves, (S, p, cards, values));
}
#endif
