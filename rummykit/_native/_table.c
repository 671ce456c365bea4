/*
 * A round of Liverpool Rummy played by BuyerBots, compiled: rummykit.odds.play.fastplay's
 * core (rummykit._native._table).
 * docs/fast-table.md is the design note (the data, the chance, each decision and what
 * decides its ties, the costs measured).
 *
 * It plays exactly what rummykit.odds.completion.play_round plays: the engine's rules
 * (rummykit/engine/game.py, phases.py, legal.py, melds.py) and GreedyBot's policy with a buying
 * policy (rummykit/agents/bots.py), for the rule options rummykit.odds.fastplay.check_fast
 * accepts. Each function below names the Python function it reproduces; where the
 * engine's result depends on a search order (find_contract's arrangement, which physical
 * copy of a card is played, which joker a swap takes) the same order is followed here.
 *
 * Chance: the game's random.Random(seed) is CPython's MT19937, seeded by init_by_array
 * from the seed's 32-bit words, and shuffle/randrange/randint/choice all go through
 * _randbelow (getrandbits(k) with k = n.bit_length(), retried while >= n). They are
 * reproduced call for call, so the deal, the cut, every reshuffle and every buy lottery
 * are the engine's.
 *
 * Cards: a physical card is its place in Shoe.cards (deck by deck, suits C D H S, ranks
 * 2..A, then the jokers): id = deck * 52 + index for a natural, 52 * decks + number for a
 * joker. index (0..51, 52 for a joker) is Card.index.
 *
 * Contract distance: GreedyBot asks contract_distance / contract_within; _contract.c
 * ports search.py's solver step for step, so the values are the engine's.
 *
 * The events, when asked for, are written to an int buffer, one after another:
 *   kind (index in rummykit.engine.events.EVENT_KINDS), seat (-1: None), n, n card ids,
 *   meld (-1: None), m, m times (k, k card ids), s, s scores.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "_contract.h"
#include "_read_ints.h"

#define MAXP 16
#define MAXSHOE (52 * 8 + 32)
#define MAXMC 64     /* cards in one meld */
#define MAXMELDS 256 /* melds on the table: 16 players laying 8 sets and 8 runs */

/* ---------------------------------------------------------------------------------------
 * MT19937 as CPython's _randommodule.c */

typedef struct {
    uint32_t state[624];
    int index;
} MT;

static void mt_init_genrand(MT *mt, uint32_t s) {
    mt->state[0] = s;
    for (int i = 1; i < 624; i++)
        mt->state[i] = 1812433253U * (mt->state[i - 1] ^ (mt->state[i - 1] >> 30)) + (uint32_t)i;
    mt->index = 624;
}

static void mt_init_by_array(MT *mt, const uint32_t *key, int len) {
    mt_init_genrand(mt, 19650218U);
    int i = 1, j = 0;
    int k = 624 > len ? 624 : len;
    uint32_t *s = mt->state;
    for (; k; k--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= 624) {
            s[0] = s[623];
            i = 1;
        }
        if (j >= len) j = 0;
    }
    for (k = 623; k; k--) {
        s[i] = (s[i] ^ ((s[i - 1] ^ (s[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= 624) {
            s[0] = s[623];
            i = 1;
        }
    }
    s[0] = 0x80000000U;
}

static void mt_seed(MT *mt, unsigned long long seed) {
    uint32_t key[2] = {(uint32_t)(seed & 0xffffffffULL), (uint32_t)(seed >> 32)};
    mt_init_by_array(mt, key, key[1] ? 2 : 1);
}

static uint32_t mt_next(MT *mt) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *s = mt->state;
    if (mt->index >= 624) {
        int kk;
        for (kk = 0; kk < 624 - 397; kk++) {
            y = (s[kk] & 0x80000000U) | (s[kk + 1] & 0x7fffffffU);
            s[kk] = s[kk + 397] ^ (y >> 1) ^ mag01[y & 1U];
        }
        for (; kk < 623; kk++) {
            y = (s[kk] & 0x80000000U) | (s[kk + 1] & 0x7fffffffU);
            s[kk] = s[kk + (397 - 624)] ^ (y >> 1) ^ mag01[y & 1U];
        }
        y = (s[623] & 0x80000000U) | (s[0] & 0x7fffffffU);
        s[623] = s[396] ^ (y >> 1) ^ mag01[y & 1U];
        mt->index = 0;
    }
    y = s[mt->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.Random._randbelow_with_getrandbits (n >= 1, n < 2**32) */
static int randbelow(MT *mt, int n) {
    int k = 0;
    while ((n >> k) != 0) k++;
    uint32_t r;
    do {
        r = mt_next(mt) >> (32 - k);
    } while (r >= (uint32_t)n);
    return (int)r;
}

static void shuffle(MT *mt, short *x, int n) {
    for (int i = n - 1; i > 0; i--) {
        int j = randbelow(mt, i + 1);
        short t = x[i];
        x[i] = x[j];
        x[j] = t;
    }
}

/* ---------------------------------------------------------------------------------------
 * The table */

typedef struct Meld {
    int kind; /* 0 set, 1 run */
    int n;
    short cards[MAXMC];
    signed char stands[MAXMC]; /* -1 for a natural, else the index the joker stands for */
    int rank, suit, start;     /* rank index (0 = 2 .. 12 = A) of a set; suit and start of a run */
} Meld;

enum {
    EV_DEAL, EV_UPCARD, EV_CUT, EV_DRAW_STOCK, EV_TAKE_DISCARD, EV_DECLINE, EV_BUY_LIMIT, EV_BUY,
    EV_PASS_BUY, EV_BUY_LOTTERY, EV_LAY_DOWN, EV_LAY_OFF, EV_SWAP, EV_DISCARD, EV_CALL,
    EV_RUMMY_PENALTY, EV_RESHUFFLE, EV_FLOAT, EV_END_TURN, EV_GO_OUT, EV_INVALID_LAY_DOWN,
    EV_PILES_EXHAUSTED, EV_ROUND_END, EV_GAME_END, EV_COUNT
};
/* rummykit.engine.events.EVENT_KINDS, in the order of the enum (a test compares them) */
static const char *EVENT_NAMES[EV_COUNT] = {
    "deal", "upcard", "cut", "draw stock", "take discard", "decline", "buy limit", "buy",
    "pass buy", "buy lottery", "lay down", "lay off", "swap", "discard", "call",
    "rummy penalty", "reshuffle", "float", "end turn", "go out", "invalid lay down",
    "piles exhausted", "round end", "game end"};

enum { ENDED_OUT, ENDED_EXHAUSTED, ENDED_LIMIT };
enum { POLICY_NEVER, POLICY_IMPROVES, POLICY_ALWAYS };
enum { ERR_NONE, ERR_UNSUPPORTED, ERR_MEMORY, ERR_UNENDING };
/* Where a round is taken up: a new turn (a round just dealt), or a resumed state's phase
 * (rummykit.engine.game.PHASES: "draw", "buy", "play", "call", "call discard"). */
enum { AT_TURN = -1, AT_DRAW, AT_BUY, AT_PLAY, AT_CALL, AT_CALL_DISCARD, AT_COUNT };
/* Most turns a resumed round without a turn limit plays before it gives up (the engine's
 * rollout gives up after rummykit.agents.searchbot.MAX_ROLLOUT_ACTIONS actions). */
#define UNENDING_TURNS 20000 /* (a turn limit of -1: none) */

/* The fields of the config tuple, in order (rummykit.agents.rollouts.CONFIG_FIELDS names them); the meld
 * rules come apart, as rummykit._native.encode_meld_rules gives them (_contract.h). */
enum {
    C_PLAYERS, C_DECKS, C_JOKERS, C_DEAL, C_SETS, C_RUNS, C_BUYING, C_BUY_TIMING,
    C_BUY_PRIORITY, C_PENALTY_CARDS, C_BUY_LIMIT, C_FACE, C_NEGATIVE, C_CUT_BONUS, C_TURN_LIMIT,
    C_JOKER_SWAP, C_TRADE_ONCE, C_FLOATING, C_NO_DISCARD, C_LIVERPOOL, C_RUMMY, C_RESHUFFLE,
    C_MUST_PLAY, C_NEEDS_LAID, C_COUNT
};

typedef struct {
    int n, decks, njk, deal, sets, runs, min_cards, nshoe;
    int buying, before_draw, priority, penalty_cards, buy_limit, face, negative, cut_bonus,
        turn_limit, joker_swap, trade_once;
    int floating, no_discard, liverpool; /* no_discard: this round is gone out by melding */
    int rummy, reshuffle, must_play, needs_laid;
    int policy[MAXP];      /* by seat */
    int by_position[MAXP]; /* the same, by position (1 = left of the dealer) */
    Solver s;
    uint64_t near[52]; /* bots.could_improve's _neighbours, as bits of card indices */
    MT mt;
    short hand[MAXP][MAXSHOE];
    int hn[MAXP];
    short stock[MAXSHOE];
    int ns;
    short disc[MAXSHOE];
    int nd;
    Meld melds[MAXMELDS];
    int owner[MAXMELDS];
    int nm;
    int laid[MAXP], buys[MAXP], last_turn[MAXP], penalties[MAXP];
    int turns, current, dealer, taken;
    short pending[MAXSHOE];
    int npending;
    uint64_t traded; /* jokers traded once, by joker number */
    int went_out, ended, error;
    int seat_turns[MAXP], laid_turn[MAXP];
    int reshuffles, max_reshuffles; /* max_reshuffles -1: no limit (Game.max_reshuffles) */
    int to_act, queue[MAXP], nq, requests[MAXP], nr, offered_by; /* a resumed state's */
    int final[MAXP];                                     /* the round's points, signed */
    int record;
    struct Cache *cache;
    int *ev;
    Py_ssize_t nev, evcap;
} G;

static inline int IDX(const G *g, int id) { return id < 52 * g->decks ? id % 52 : 52; }
static inline int DECK(const G *g, int id) { return id < 52 * g->decks ? id / 52 : id - 52 * g->decks; }
/* legal.rank_major_key: rank-major, suit, deck; jokers last */
static inline int RKEY(const G *g, int id) {
    int i = IDX(g, id);
    return (i == 52 ? 99 : (i % 13) * 4 + i / 13) * 64 + DECK(g, id);
}
static inline int RANK_AT(int p) { return (p == 1 || p == 14) ? 12 : p - 2; }

/* RuleSet.point_value */
static int value_of(const G *g, int id) {
    int i = IDX(g, id);
    if (i == 52) return 20;
    int r = i % 13;
    if (g->face) return r <= 8 ? r + 2 : (r == 12 ? 1 : 10);
    return r <= 7 ? 5 : (r == 12 ? 15 : 10);
}

/* -- events */
static void ev_push(G *g, int v) {
    if (g->nev == g->evcap) {
        Py_ssize_t cap = g->evcap ? 2 * g->evcap : 4096;
        int *grown = realloc(g->ev, sizeof(int) * cap);
        if (!grown) {
            g->error = ERR_MEMORY;
            return;
        }
        g->ev = grown;
        g->evcap = cap;
    }
    g->ev[g->nev++] = v;
}

static void event(G *g, int kind, int seat, const short *cards, int nc, int meld, const Meld *melds,
                  int nmelds, const int *scores, int nscores) {
    if (!g->record) return;
    ev_push(g, kind);
    ev_push(g, seat);
    ev_push(g, nc);
    for (int i = 0; i < nc; i++) ev_push(g, cards[i]);
    ev_push(g, meld);
    ev_push(g, nmelds);
    for (int m = 0; m < nmelds; m++) {
        ev_push(g, melds[m].n);
        for (int i = 0; i < melds[m].n; i++) ev_push(g, melds[m].cards[i]);
    }
    ev_push(g, nscores);
    for (int i = 0; i < nscores; i++) ev_push(g, scores[i]);
}

static void event1(G *g, int kind, int seat, int card) {
    short c = (short)card;
    event(g, kind, seat, &c, card < 0 ? 0 : 1, -1, NULL, 0, NULL, 0);
}

/* -- hands, kept sorted by RKEY */
static void hand_add(G *g, int seat, int id) {
    short *h = g->hand[seat];
    int n = g->hn[seat], key = RKEY(g, id), j = n;
    while (j > 0 && RKEY(g, h[j - 1]) > key) {
        h[j] = h[j - 1];
        j--;
    }
    h[j] = (short)id;
    g->hn[seat] = n + 1;
}

static void hand_remove(G *g, int seat, int id) {
    short *h = g->hand[seat];
    int n = g->hn[seat];
    for (int i = 0; i < n; i++)
        if (h[i] == id) {
            memmove(h + i, h + i + 1, sizeof(short) * (n - i - 1));
            g->hn[seat] = n - 1;
            return;
        }
}

static void hand_counts(const G *g, int seat, unsigned char *counts) {
    memset(counts, 0, 53);
    for (int i = 0; i < g->hn[seat]; i++) counts[IDX(g, g->hand[seat][i])]++;
}

static int is_pending(const G *g, int id) {
    for (int i = 0; i < g->npending; i++)
        if (g->pending[i] == id) return 1;
    return 0;
}

static void pending_remove(G *g, int id) {
    for (int i = 0; i < g->npending; i++)
        if (g->pending[i] == id) {
            memmove(g->pending + i, g->pending + i + 1, sizeof(short) * (g->npending - i - 1));
            g->npending--;
            return;
        }
}

/* legal.meld_card_key, for copies of one index */
static int meld_key(const G *g, int id) {
    if (IDX(g, id) != 52) return DECK(g, id);
    int rank = is_pending(g, id) ? 0 : ((g->traded >> DECK(g, id)) & 1) ? 1 : 2;
    return rank * 1000 + DECK(g, id);
}

/* -- the distance cache (GreedyBot._cache: copies are interchangeable, so the distance
 * depends on the counts of card indices only). One round, one contract: emptied (a new
 * generation) at each round. */
#define CACHE_SLOTS 8192
typedef struct Cache {
    unsigned char keys[CACHE_SLOTS][53];
    int values[CACHE_SLOTS];
    unsigned gen[CACHE_SLOTS]; /* a slot is full when its gen is now */
    unsigned now;
    int fill;
} Cache;

static void cache_reset(Cache *c) {
    c->now++;
    if (c->now == 0) {
        memset(c->gen, 0, sizeof(c->gen));
        c->now = 1;
    }
    c->fill = 0;
}

static uint32_t counts_hash(const unsigned char *counts) {
    uint32_t h = 2166136261U;
    for (int i = 0; i < 53; i++) h = (h ^ counts[i]) * 16777619U;
    return h;
}

static int cache_get(const Cache *c, const unsigned char *counts) {
    uint32_t slot = counts_hash(counts) & (CACHE_SLOTS - 1);
    while (c->gen[slot] == c->now) {
        if (!memcmp(c->keys[slot], counts, 53)) return c->values[slot];
        slot = (slot + 1) & (CACHE_SLOTS - 1);
    }
    return -1;
}

static void cache_put(Cache *c, const unsigned char *counts, int value) {
    if (c->fill > CACHE_SLOTS * 3 / 4) cache_reset(c);
    uint32_t slot = counts_hash(counts) & (CACHE_SLOTS - 1);
    while (c->gen[slot] == c->now) slot = (slot + 1) & (CACHE_SLOTS - 1);
    c->gen[slot] = c->now;
    memcpy(c->keys[slot], counts, 53);
    c->values[slot] = value;
    c->fill++;
}

/* GreedyBot._distance: low < 0, the distance; else it is known to be low or low + 1 */
static int bot_distance(G *g, const unsigned char *counts, int low) {
    int v = cache_get(g->cache, counts);
    if (v >= 0) return v;
    RHand h;
    rhand_from_counts(&h, counts);
    if (low < 0)
        v = distance(&g->s, &h, g->sets, g->runs);
    else
        v = within(&g->s, &h, g->sets, g->runs, low) ? low : low + 1;
    cache_put(g->cache, counts, v);
    return v;
}

/* GreedyBot._distance_after_draw */
static int distance_after_draw(G *g, unsigned char *counts) {
    for (int i = 0; i < 53; i++) {
        if (!counts[i]) continue;
        counts[i]--;
        int before = cache_get(g->cache, counts);
        counts[i]++;
        if (before >= 0) return before == 0 ? 0 : bot_distance(g, counts, before - 1);
    }
    return bot_distance(g, counts, -1);
}

/* bots.could_improve, on counts of the hand's indices */
static int could_improve(const G *g, const unsigned char *counts, int ncards, int index) {
    if (index == 52 || ncards < g->min_cards) return 1;
    uint64_t held = 0;
    for (int i = 0; i < 53; i++)
        if (counts[i]) held |= 1ULL << i;
    return (g->near[index] & held) != 0;
}

/* GreedyBot._improves */
static int improves(G *g, int seat, int card) {
    if (card < 0 || g->laid[seat]) return 0;
    unsigned char counts[53];
    hand_counts(g, seat, counts);
    int index = IDX(g, card);
    if (!could_improve(g, counts, g->hn[seat], index)) return 0;
    int now = bot_distance(g, counts, -1);
    if (now == 0) return 0;
    counts[index]++;
    return bot_distance(g, counts, now - 1) < now;
}

/* -- melds (melds.py) */
static void make_set(Meld *m, const short *cards, int n, int rank, const G *g) {
    m->kind = 0;
    m->n = n;
    m->rank = rank;
    m->suit = -1;
    m->start = -1;
    int held = 0;
    for (int i = 0; i < n; i++) {
        m->cards[i] = cards[i];
        if (IDX(g, cards[i]) != 52) held |= 1 << (IDX(g, cards[i]) / 13);
    }
    int order[8], no = 0;
    for (int s = 0; s < 4; s++)
        if (!(held >> s & 1)) order[no++] = s;
    for (int s = 0; s < 4; s++) order[no++] = s;
    int k = 0;
    for (int i = 0; i < n; i++) {
        if (IDX(g, cards[i]) == 52)
            m->stands[i] = (signed char)(order[(k++) % no] * 13 + rank);
        else
            m->stands[i] = -1;
    }
}

static void make_run(Meld *m, const short *cards, int n, int suit, int start, const G *g) {
    m->kind = 1;
    m->n = n;
    m->rank = -1;
    m->suit = suit;
    m->start = start;
    for (int i = 0; i < n; i++) {
        m->cards[i] = cards[i];
        m->stands[i] = IDX(g, cards[i]) == 52 ? (signed char)(suit * 13 + RANK_AT(start + i)) : -1;
    }
}

static int meld_jokers(const G *g, const Meld *m) {
    int k = 0;
    for (int i = 0; i < m->n; i++) k += IDX(g, m->cards[i]) == 52;
    return k;
}

/* melds.lay_off_options: the new melds (low end first), their number */
static int lay_off_options(const G *g, const Meld *m, int card, Meld *out) {
    int index = IDX(g, card), joker = index == 52;
    if (joker && g->s.max_jokers != BIG && meld_jokers(g, m) >= g->s.max_jokers) return 0;
    if (m->n + 1 > MAXMC) return 0;
    short cards[MAXMC + 1];
    if (m->kind == 0) {
        if (!joker && index % 13 != m->rank) return 0;
        if (out) {
            memcpy(cards, m->cards, sizeof(short) * m->n);
            cards[m->n] = (short)card;
            make_set(out, cards, m->n + 1, m->rank, g);
        }
        return 1;
    }
    int k = 0, low = m->start - 1, high = m->start + m->n;
    int end = high - 1;
    if (low >= g->s.lo_pos && !(low == 1 && end == 14) &&
        (joker || (index / 13 == m->suit && RANK_AT(low) == index % 13))) {
        if (out) {
            cards[0] = (short)card;
            memcpy(cards + 1, m->cards, sizeof(short) * m->n);
            make_run(&out[k], cards, m->n + 1, m->suit, low, g);
        }
        k++;
    }
    if (high <= g->s.hi_pos && !(high == 14 && m->start == 1) &&
        (joker || (index / 13 == m->suit && RANK_AT(high) == index % 13))) {
        if (out) {
            memcpy(cards, m->cards, sizeof(short) * m->n);
            cards[m->n] = (short)card;
            make_run(&out[k], cards, m->n + 1, m->suit, m->start, g);
        }
        k++;
    }
    return k;
}

static int fits_table(const G *g, int card, const Meld *melds, int nm) {
    for (int i = 0; i < nm; i++)
        if (lay_off_options(g, &melds[i], card, NULL)) return 1;
    return 0;
}

/* legal.can_finish: the turn could still end holding `rest` (extra_pending: a joker
 * about to be pending, or -1) */
static int can_finish(const G *g, const short *rest, int n, int extra_pending) {
    if (!n) return g->floating || g->no_discard; /* legal._empty_ok */
    if (g->no_discard && n == 1) return 1;       /* "end turn" without a discard */
    for (int i = 0; i < n; i++)
        if (rest[i] != g->taken && !is_pending(g, rest[i]) && rest[i] != extra_pending) return 1;
    return 0;
}

static int lay_down_melds(G *g, int seat, struct Meld *melds, int *nmelds, short *rest, int *nrest);

/* legal.joker_to_play: a joker taken by a swap must still be played (while it can be) */
static int joker_to_play(G *g, int seat) {
    if (!g->npending) return 0;
    if (!g->laid[seat]) {
        struct Meld melds[MAXSETS * 4 + MAXRUNS];
        short rest[MAXSHOE];
        int nmelds, nrest;
        return lay_down_melds(g, seat, melds, &nmelds, rest, &nrest);
    }
    for (int i = 0; i < g->npending; i++)
        if (fits_table(g, g->pending[i], g->melds, g->nm)) return 1;
    return 0;
}

/* One card per index, the copy legal.legal_actions lists: the least by meld_card_key. */
static int faces(const G *g, int seat, short *out) {
    int best[53], n = 0;
    for (int i = 0; i < 53; i++) best[i] = -1;
    for (int i = 0; i < g->hn[seat]; i++) {
        int id = g->hand[seat][i], x = IDX(g, id);
        if (best[x] < 0 || meld_key(g, id) < meld_key(g, best[x])) best[x] = id;
    }
    /* rank-major order of the indices */
    for (int r = 0; r < 13; r++)
        for (int s = 0; s < 4; s++)
            if (best[s * 13 + r] >= 0) out[n++] = (short)best[s * 13 + r];
    if (best[52] >= 0) out[n++] = (short)best[52];
    return n;
}

/* legal.discardable (play phase): one physical card per index, rank-major */
static int discardable(G *g, int seat, short *out, int play) {
    if (play && g->no_discard && g->hn[seat] == 1) return 0;
    if (play && joker_to_play(g, seat)) return 0;
    int best[53], n = 0;
    for (int i = 0; i < 53; i++) best[i] = -1;
    for (int i = 0; i < g->hn[seat]; i++) {
        int id = g->hand[seat][i], x = IDX(g, id);
        if (id == g->taken) continue;
        if (best[x] < 0) {
            best[x] = id;
            continue;
        }
        /* ordered by (pending, rank_major_key): the first wins */
        int p_new = is_pending(g, id), p_old = is_pending(g, best[x]);
        if (p_new < p_old || (p_new == p_old && RKEY(g, id) < RKEY(g, best[x]))) best[x] = id;
    }
    for (int r = 0; r < 13; r++)
        for (int s = 0; s < 4; s++)
            if (best[s * 13 + r] >= 0) out[n++] = (short)best[s * 13 + r];
    if (best[52] >= 0) out[n++] = (short)best[52];
    return n;
}

/* -- laying down: legal._canonical_lay_down (find_contract's arrangement) and phases._lay_down */

typedef struct {
    int nmelds;
    int kind[MAXSETS * 4 + MAXRUNS], rank[MAXSETS * 4 + MAXRUNS], suit[MAXSETS * 4 + MAXRUNS],
        start[MAXSETS * 4 + MAXRUNS], len[MAXSETS * 4 + MAXRUNS];
    int code[MAXSETS * 4 + MAXRUNS][MAXMC]; /* card indices, 52 for a joker */
} Groups;

/* search._build, by card index: the sets (plan order), then the runs */
static void build_groups(const G *g, const Plan *plan, const unsigned char *counts, Groups *out) {
    const Solver *s = &g->s;
    int pool[53];
    for (int i = 0; i < 53; i++) pool[i] = counts[i];
    Groups runs;
    runs.nmelds = 0;
    for (int r = 0; r < plan->nruns; r++) {
        int m = runs.nmelds++;
        runs.kind[m] = 1;
        runs.suit[m] = plan->suit[r];
        runs.start[m] = plan->start[r];
        runs.len[m] = plan->len[r];
        for (int o = 0; o < plan->len[r]; o++) {
            if (plan->used[r][o]) {
                int c = cell_of(plan->suit[r], plan->start[r] + o);
                pool[c]--;
                runs.code[m][o] = c;
            } else {
                pool[52]--;
                runs.code[m][o] = 52;
            }
        }
    }
    out->nmelds = 0;
    int size = s->set_size, cap = s->set_size > s->set_lo ? s->set_size : s->set_lo;
    for (int q = 0; q < plan->nsets; q++) {
        int r = plan->srank[q], k = plan->sk[q];
        int naturals[4 * MAXSHOE / 52 + 8], nn = 0;
        for (int suit = 0; suit < 4; suit++)
            for (int c = 0; c < pool[suit * 13 + r]; c++) naturals[nn++] = suit * 13 + r;
        int first = out->nmelds;
        for (int j = 0; j < k; j++) {
            int m = out->nmelds++;
            out->kind[m] = 0;
            out->rank[m] = r;
            out->len[m] = 0;
        }
        if (k == 1) {
            int take = nn < cap ? nn : cap;
            for (int i = 0; i < take; i++) out->code[first][out->len[first]++] = naturals[i];
        } else {
            int take = nn < k * cap ? nn : k * cap;
            for (int i = 0; i < take; i++) {
                int m = first + i % k;
                out->code[m][out->len[m]++] = naturals[i];
            }
        }
        for (int j = 0; j < k; j++) {
            int m = first + j;
            while (out->len[m] < size) {
                out->code[m][out->len[m]++] = 52;
                pool[52]--;
            }
        }
    }
    for (int m = 0; m < runs.nmelds; m++) {
        int d = out->nmelds++;
        out->kind[d] = 1;
        out->suit[d] = runs.suit[m];
        out->start[d] = runs.start[m];
        out->len[d] = runs.len[m];
        memcpy(out->code[d], runs.code[m], sizeof(int) * runs.len[m]);
    }
}

/* melds._place_run: the run `cards` make (the order given, when it reads as a run, places
 * the jokers; else they fill the gaps, then extend the run up, then down); 0 if none */
static int place_run(const G *g, const short *cards, int n, Meld *out) {
    int lowest = g->s.lo_pos, highest = g->s.hi_pos;
    int suit = -1, ace = -1, naces = 0, njk = 0;
    short jokers[MAXMC];
    int by_rank[13];
    for (int r = 0; r < 13; r++) by_rank[r] = -1;
    for (int i = 0; i < n; i++) {
        int x = IDX(g, cards[i]);
        if (x == 52) {
            jokers[njk++] = cards[i];
            continue;
        }
        if (suit < 0) suit = x / 13;
        if (x % 13 == 12) {
            ace = cards[i];
            naces++;
            continue;
        }
        if (by_rank[x % 13] >= 0) return 0; /* a rank twice */
        by_rank[x % 13] = cards[i];
    }
    if (naces > 1) return 0;
    /* the choices: position -> card (-1 empty), ace low first */
    int placed[2][15], nchoices = 0;
    int ace_options[2] = {1, 14};
    for (int a = 0; a < 2; a++) {
        if (naces && !(a == 0 ? g->s.lo_pos == 1 : g->s.hi_pos == 14)) continue;
        if (!naces && a == 1) break;
        int *pl = placed[nchoices++];
        for (int p = 0; p < 15; p++) pl[p] = -1;
        for (int r = 0; r < 12; r++)
            if (by_rank[r] >= 0) pl[r + 2] = by_rank[r];
        if (naces) pl[ace_options[a]] = ace;
    }
    if (!nchoices) return 0;
    short ordered[MAXMC];
    for (int dir = 0; dir < 2; dir++) {
        for (int i = 0; i < n; i++) ordered[i] = dir ? cards[n - 1 - i] : cards[i];
        for (int c = 0; c < nchoices; c++) {
            int *pl = placed[c];
            int first = 0;
            while (IDX(g, ordered[first]) == 52) first++;
            int at = -1;
            for (int p = 1; p < 15; p++)
                if (pl[p] == ordered[first]) {
                    at = p;
                    break;
                }
            int start = at - first;
            if (start < lowest || start + n - 1 > highest) continue;
            int ok = 1;
            for (int i = 0; i < n && ok; i++)
                ok = IDX(g, ordered[i]) == 52 || pl[start + i] == ordered[i];
            if (ok) {
                make_run(out, ordered, n, suit, start, g);
                return 1;
            }
        }
    }
    for (int c = 0; c < nchoices; c++) {
        int *pl = placed[c];
        int low = 15, high = 0, count = 0;
        for (int p = 1; p < 15; p++)
            if (pl[p] >= 0) {
                if (p < low) low = p;
                if (p > high) high = p;
                count++;
            }
        int gaps = high - low + 1 - count;
        if (gaps > njk) continue;
        int extra = njk - gaps;
        int up = extra < highest - high ? extra : highest - high;
        int down = extra - up;
        if (low - down < lowest) continue;
        int start = low - down, k = 0, j = 0;
        short slots[MAXMC];
        for (int p = start; p <= high + up; p++) slots[k++] = pl[p] >= 0 ? (short)pl[p] : jokers[j++];
        make_run(out, slots, k, suit, start, g);
        return 1;
    }
    return 0;
}

/* melds._count_problem is None */
static int counts_ok(const G *g, int n, int naturals, int size, int min_naturals) {
    return n >= size && naturals >= min_naturals &&
           (g->s.max_jokers == BIG || n - naturals <= g->s.max_jokers);
}

/* melds.check_meld(cards, kind="set") / kind="run": 1 and the meld, or 0 */
static int check_kind(const G *g, const short *cards, int n, int kind, Meld *out) {
    int naturals = 0, rank = -1, suit = -1;
    for (int i = 0; i < n; i++) {
        int x = IDX(g, cards[i]);
        if (x == 52) continue;
        naturals++;
        if (kind == 0 && rank >= 0 && x % 13 != rank) return 0;
        if (kind == 1 && suit >= 0 && x / 13 != suit) return 0;
        rank = x % 13;
        suit = x / 13;
    }
    if (!naturals) return 0;
    if (kind == 0) {
        if (!counts_ok(g, n, naturals, g->s.set_size, g->s.set_nat)) return 0;
        make_set(out, cards, n, rank, g);
        return 1;
    }
    if (!counts_ok(g, n, naturals, g->s.run_size, g->s.run_nat)) return 0;
    return place_run(g, cards, n, out) && n <= 13;
}

/* `hand` less the cards of `melds` (physical) */
static int hand_without(const G *g, int seat, const Meld *melds, int nmelds, short *rest) {
    int n = 0;
    for (int i = 0; i < g->hn[seat]; i++) {
        int id = g->hand[seat][i], used = 0;
        for (int m = 0; m < nmelds && !used; m++)
            for (int k = 0; k < melds[m].n && !used; k++) used = melds[m].cards[k] == id;
        if (!used) rest[n++] = (short)id;
    }
    return n;
}

/* The lay-down GreedyBot plays (legal._canonical_lay_down, then phases._lay_down), or 0
 * when there is none. The melds go to `melds`, the hand left to `rest`. */
static int lay_down_melds(G *g, int seat, struct Meld *melds, int *nmelds, short *rest, int *nrest) {
    if (g->hn[seat] < g->min_cards) return 0;
    unsigned char counts[53];
    hand_counts(g, seat, counts);
    RHand h;
    rhand_from_counts(&h, counts);
    Plan plan;
    if (!solve(&g->s, &h, g->sets, g->runs, &plan)) return 0;
    Groups groups;
    build_groups(g, &plan, counts, &groups);
    /* search._build's melds, physical: the runs take the lowest-deck copies first (the
     * hand is sorted by rank, then deck; the jokers by deck), then the sets */
    const short *hand = g->hand[seat];
    int nh = g->hn[seat], nm = groups.nmelds, nsets = nm - plan.nruns;
    Meld built[MAXSETS * 4 + MAXRUNS];
    memset(built, 0, sizeof(Meld) * nm); /* (each is built below; this quiets -Wmaybe-uninitialized) */
    unsigned char used[MAXSHOE];
    memset(used, 0, nh);
    for (int step = 0; step < nm; step++) {
        int m = step < plan.nruns ? nsets + step : step - plan.nruns;
        short physical[MAXMC];
        for (int i = 0; i < groups.len[m]; i++) {
            int q = 0;
            while (used[q] || IDX(g, hand[q]) != groups.code[m][i]) q++;
            used[q] = 1;
            physical[i] = hand[q];
        }
        if (groups.kind[m] == 0)
            make_set(&built[m], physical, groups.len[m], groups.rank[m], g);
        else
            make_run(&built[m], physical, groups.len[m], groups.suit[m], groups.start[m], g);
    }
    short left[MAXSHOE];
    int n = hand_without(g, seat, built, nm, left);
    if (!can_finish(g, left, n, -1)) {
        /* Give a card back from a meld longer than it need be (an end card first) so that
         * the turn can end. Minimal melds have none to give. */
        int found = 0;
        for (int m = 0; m < nm && !found; m++) {
            int k = built[m].n;
            short drops[MAXMC + 2];
            int nd = 0;
            short order[MAXMC + 2];
            order[0] = built[m].cards[0];
            order[1] = built[m].cards[k - 1];
            memcpy(order + 2, built[m].cards, sizeof(short) * k);
            for (int i = 0; i < k + 2; i++) {
                int dup = 0;
                for (int j = 0; j < nd; j++) dup |= drops[j] == order[i];
                if (!dup) drops[nd++] = order[i];
            }
            for (int d = 0; d < nd && !found; d++) {
                short group[MAXMC];
                int ng = 0, gone = 0;
                for (int i = 0; i < k; i++) {
                    if (!gone && built[m].cards[i] == drops[d]) {
                        gone = 1;
                        continue;
                    }
                    group[ng++] = built[m].cards[i];
                }
                Meld trimmed;
                if (!check_kind(g, group, ng, built[m].kind, &trimmed)) continue;
                Meld saved = built[m];
                built[m] = trimmed;
                n = hand_without(g, seat, built, nm, left);
                if (can_finish(g, left, n, -1))
                    found = 1;
                else
                    built[m] = saved;
            }
        }
        if (!found) return 0;
    }
    /* phases._cards_for_melds: legal.match_cards picks, code by code, the least copy by
     * meld_card_key; melds.check_lay_down makes the melds of them */
    unsigned char taken_flag[MAXSHOE];
    memset(taken_flag, 0, nh);
    for (int m = 0; m < nm; m++) {
        short physical[MAXMC];
        for (int i = 0; i < built[m].n; i++) {
            int best = -1, code = IDX(g, built[m].cards[i]);
            for (int q = 0; q < nh; q++)
                if (!taken_flag[q] && IDX(g, hand[q]) == code &&
                    (best < 0 || meld_key(g, hand[q]) < meld_key(g, hand[best])))
                    best = q;
            taken_flag[best] = 1;
            physical[i] = hand[best];
        }
        if (!check_kind(g, physical, built[m].n, built[m].kind, &melds[m])) {
            g->error = ERR_UNSUPPORTED;
            return 0;
        }
    }
    *nmelds = nm;
    n = 0;
    for (int q = 0; q < nh; q++)
        if (!taken_flag[q]) rest[n++] = hand[q];
    *nrest = n;
    if (!can_finish(g, rest, n, -1)) {
        g->error = ERR_UNSUPPORTED; /* the engine would refuse its own lay-down */
        return 0;
    }
    return 1;
}

/* -- swaps: legal.try_swap for a laid-down player; 1 and the new meld and joker if legal */
static int try_swap(const G *g, int seat, int card, int number, Meld *out, int *joker_out) {
    const Meld *m = &g->melds[number];
    int index = IDX(g, card);
    if (m->kind == 0 && g->joker_swap == 1) return 0; /* jokers only from runs */
    int at = -1;
    for (int i = 0; i < m->n; i++)
        if (m->stands[i] >= 0 && (m->kind == 0 || m->stands[i] == index)) {
            at = i;
            break;
        }
    if (at < 0) return 0;
    short cards[MAXMC];
    memcpy(cards, m->cards, sizeof(short) * m->n);
    int joker = cards[at];
    cards[at] = (short)card;
    if (m->kind == 0)
        make_set(out, cards, m->n, m->rank, g);
    else
        make_run(out, cards, m->n, m->suit, m->start, g);
    /* the hand less the card must keep a card to discard (the joker joins the pending) */
    short rest[MAXSHOE];
    int n = 0;
    int removed = 0;
    for (int i = 0; i < g->hn[seat]; i++) {
        if (!removed && g->hand[seat][i] == card) {
            removed = 1;
            continue;
        }
        rest[n++] = g->hand[seat][i];
    }
    if (g->trade_once && (g->traded >> DECK(g, joker) & 1)) return 0;
    if (!can_finish(g, rest, n, joker)) return 0;
    if (g->must_play && g->laid[seat]) {
        /* the joker must fit the table with the new meld */
        int fits = 0;
        for (int i = 0; i < g->nm && !fits; i++)
            fits = lay_off_options(g, i == number ? out : &g->melds[i], joker, NULL) > 0;
        if (!fits) return 0;
    } else if (g->must_play) {
        /* before laying down: the hand with the joker must hold the contract */
        unsigned char counts[53];
        hand_counts(g, seat, counts);
        counts[index]--;
        counts[52]++;
        RHand h;
        rhand_from_counts(&h, counts);
        Plan plan;
        if (!solve(&g->s, &h, g->sets, g->runs, &plan)) return 0;
    }
    *joker_out = joker;
    return 1;
}

/* -- the round */
static void end_round(G *g) {
    int points[MAXP];
    int sign = g->negative ? -1 : 1;
    for (int seat = 0; seat < g->n; seat++) {
        int v = 0;
        for (int i = 0; i < g->hn[seat]; i++) v += value_of(g, g->hand[seat][i]);
        points[seat] = sign * (v + g->penalties[seat]);
        g->final[seat] = points[seat];
    }
    event(g, EV_ROUND_END, g->went_out, NULL, 0, -1, NULL, 0, points, g->n);
}

/* phases._pop_stock (max_reshuffles -1: none, as completion.play_round sets) */
static int pop_stock(G *g) {
    if (!g->ns && g->reshuffle && g->nd > 1 &&
        (g->max_reshuffles < 0 || g->reshuffles < g->max_reshuffles)) {
        g->reshuffles++;
        int top = g->disc[g->nd - 1];
        memcpy(g->stock, g->disc, sizeof(short) * (g->nd - 1));
        g->ns = g->nd - 1;
        shuffle(&g->mt, g->stock, g->ns);
        g->disc[0] = (short)top;
        g->nd = 1;
        int size = g->ns;
        event(g, EV_RESHUFFLE, -1, NULL, 0, -1, NULL, 0, &size, 1);
    }
    return g->ns ? g->stock[--g->ns] : -1;
}

static void execute_buy(G *g, int seat) {
    short cards[MAXSHOE];
    int nc = 0;
    cards[nc++] = g->disc[--g->nd];
    for (int k = 0; k < g->penalty_cards; k++) cards[nc++] = g->stock[--g->ns];
    for (int i = 0; i < nc; i++) hand_add(g, seat, cards[i]);
    g->buys[seat]++;
    int before = g->current;
    event(g, EV_BUY, seat, cards, nc, -1, NULL, 0, &before, g->before_draw ? 1 : 0);
}

static void run_window(G *g, const int *queue, int nq, const int *made, int nmade);

/* phases._open_buy_window and the bots' answers, to the end of the window */
static void buy_window(G *g) {
    if (!g->nd || !g->buying) return;
    int top = g->disc[g->nd - 1], n = g->n;
    int limit = g->buy_limit;
    if (limit >= 0 && g->ns >= g->penalty_cards)
        for (int i = 1; i < n; i++) {
            int seat = (g->current + i) % n;
            if (g->buys[seat] >= limit) {
                short c = (short)top;
                int scores[2] = {g->buys[seat], limit};
                event(g, EV_BUY_LIMIT, seat, &c, 1, -1, NULL, 0, scores, 2);
            }
        }
    if (g->ns < g->penalty_cards) return;
    int queue[MAXP], nq = 0;
    for (int i = 1; i < n; i++) {
        int seat = (g->current + i) % n;
        if (limit < 0 || g->buys[seat] < limit) queue[nq++] = seat;
    }
    if (g->priority == 1) /* longest_waiting: a stable sort by last turn */
        for (int i = 1; i < nq; i++) {
            int v = queue[i], j = i - 1;
            while (j >= 0 && g->last_turn[queue[j]] > g->last_turn[v]) {
                queue[j + 1] = queue[j];
                j--;
            }
            queue[j + 1] = v;
        }
    run_window(g, queue, nq, NULL, 0);
}

/* phases._next_buyer to the end of the window: the seats of queue asked in turn (the
 * first is asked now), after the requests already made (first_call) */
static void run_window(G *g, const int *queue, int nq, const int *made, int nmade) {
    int top = g->disc[g->nd - 1];
    int requests[MAXP], nr = nmade;
    if (nmade) memcpy(requests, made, sizeof(int) * nmade);
    for (int q = 0; q < nq; q++) {
        int seat = queue[q], policy = g->policy[seat];
        int buy = policy == POLICY_ALWAYS || (policy == POLICY_IMPROVES && improves(g, seat, top));
        if (!buy) {
            event(g, EV_PASS_BUY, seat, NULL, 0, -1, NULL, 0, NULL, 0);
            continue;
        }
        if (g->priority == 2) {
            requests[nr++] = seat;
            continue;
        }
        execute_buy(g, seat);
        return;
    }
    if (nr) {
        int winner = nr == 1 ? requests[0] : requests[randbelow(&g->mt, nr)];
        event(g, EV_BUY_LOTTERY, winner, NULL, 0, -1, NULL, 0, requests, nr);
        execute_buy(g, winner);
    }
}

/* phases._after_play with an empty hand: go out by melding (the last round without a final
 * discard) or float; 1 if the round ended */
static int after_play(G *g, int seat) {
    if (g->no_discard) {
        event(g, EV_GO_OUT, seat, NULL, 0, -1, NULL, 0, NULL, 0);
        g->went_out = seat;
        g->ended = ENDED_OUT;
        end_round(g);
        return 1;
    }
    event(g, EV_FLOAT, seat, NULL, 0, -1, NULL, 0, NULL, 0);
    return 0;
}

/* GreedyBot._fits of a Discard's card: its face, the deck-0 copy (actions.face), which
 * fits no meld it lies in (melds.lay_off_options: a card is not laid off twice) */
static int face_fits(const G *g, int index) {
    int face = index == 52 ? 52 * g->decks : index;
    for (int m = 0; m < g->nm; m++) {
        int inside = 0;
        for (int i = 0; i < g->melds[m].n && !inside; i++) inside = g->melds[m].cards[i] == face;
        if (!inside && lay_off_options(g, &g->melds[m], face, NULL)) return 1;
    }
    return 0;
}

/* GreedyBot._discard_key, as one integer per face */
static int discard_key(const G *g, int card) {
    int x = IDX(g, card);
    if (x == 52) return 1 << 20;
    int fits = (g->liverpool || g->rummy) && face_fits(g, x);
    return (100 - value_of(g, card)) * 1000 + fits * 100 + (x % 13) * 4 + x / 13;
}

/* the options sorted by discard_key (distinct keys) */
static void sort_discards(const G *g, short *options, int no) {
    int keys[53];
    for (int i = 0; i < no; i++) keys[i] = discard_key(g, options[i]);
    for (int i = 1; i < no; i++) {
        int k = keys[i];
        short o = options[i];
        int j = i - 1;
        while (j >= 0 && keys[j] > k) {
            keys[j + 1] = keys[j];
            options[j + 1] = options[j];
            j--;
        }
        keys[j + 1] = k;
        options[j + 1] = o;
    }
}

/* phases._callable and _call under discard_call="liverpool", with the bots' answers: the
 * first laid-down player holding cards claims the discard (GreedyBot always calls) and
 * discards in the phase "call discard" */
static void liverpool_claim(G *g, int caller, int card, int offender);
static void call_discard(G *g, int caller);

static void liverpool_call(G *g, int seat, int card) {
    if (!g->laid[seat] || !fits_table(g, card, g->melds, g->nm)) return;
    int caller = -1;
    for (int i = 1; i < g->n && caller < 0; i++) {
        int other = (seat + i) % g->n;
        if (g->laid[other] && g->hn[other]) caller = other;
    }
    if (caller < 0) return;
    liverpool_claim(g, caller, card, seat);
}

/* phases.on_call under "liverpool": caller claims the discard of offender; then its
 * discard (the phase "call discard") */
static void liverpool_claim(G *g, int caller, int card, int offender) {
    short c = (short)card;
    event(g, EV_CALL, caller, &c, 1, -1, NULL, 0, &offender, 1);
    g->nd--;
    hand_add(g, caller, card);
    g->taken = card;
    g->npending = 0;
    call_discard(g, caller);
}

/* GreedyBot's discard in the phase "call discard" (the claimed card is g->taken) */
static void call_discard(G *g, int caller) {
    short options[53];
    int no = discardable(g, caller, options, 0);
    sort_discards(g, options, no);
    hand_remove(g, caller, options[0]);
    g->disc[g->nd++] = options[0];
    event1(g, EV_DISCARD, caller, options[0]);
}

/* phases._callable and _call under discard_call="rummy": the next player calls (GreedyBot
 * always does) and the discarder takes the card back with a card from the stock */
static void rummy_penalty(G *g, int caller, int card, int offender);

static void rummy_call(G *g, int seat, int card) {
    if (!g->laid[seat] || !fits_table(g, card, g->melds, g->nm)) return;
    rummy_penalty(g, (seat + 1) % g->n, card, seat);
}

/* phases.on_call under "rummy": caller makes offender take its discard back, with the top
 * card of the stock */
static void rummy_penalty(G *g, int caller, int card, int offender) {
    short cards[2] = {(short)card, -1};
    event(g, EV_CALL, caller, cards, 1, -1, NULL, 0, &offender, 1);
    g->nd--;
    hand_add(g, offender, card);
    int extra = pop_stock(g);
    if (extra >= 0) {
        hand_add(g, offender, extra);
        cards[1] = (short)extra;
    }
    event(g, EV_RUMMY_PENALTY, offender, cards, extra >= 0 ? 2 : 1, -1, NULL, 0, NULL, 0);
}

/* The play phase of `seat`, GreedyBot._play until the turn ends: 1 if the round ended. */
static int play_phase(G *g, int seat) {
    for (;;) {
        if (g->error) return 1;
        if (!g->laid[seat]) {
            Meld melds[MAXSETS * 4 + MAXRUNS];
            short rest[MAXSHOE];
            int nmelds, nrest;
            if (lay_down_melds(g, seat, melds, &nmelds, rest, &nrest)) {
                if (g->nm + nmelds > MAXMELDS) {
                    g->error = ERR_UNSUPPORTED;
                    return 1;
                }
                int start = g->nm;
                for (int m = 0; m < nmelds; m++) {
                    g->melds[g->nm] = melds[m];
                    g->owner[g->nm++] = seat;
                }
                memcpy(g->hand[seat], rest, sizeof(short) * nrest);
                g->hn[seat] = nrest;
                g->laid[seat] = 1;
                g->laid_turn[seat] = g->seat_turns[seat];
                for (int i = g->npending - 1; i >= 0; i--) {
                    int kept = 0;
                    for (int q = 0; q < nrest; q++) kept |= rest[q] == g->pending[i];
                    if (!kept) pending_remove(g, g->pending[i]);
                }
                event(g, EV_LAY_DOWN, seat, NULL, 0, start, melds, nmelds, NULL, 0);
                if (!g->hn[seat]) return after_play(g, seat);
                continue;
            }
            if (g->error) return 1;
        }
        short face[53];
        int nf = faces(g, seat, face);
        if (g->laid[seat]) {
            /* LayOff: the most points, then the lowest meld number, first listed */
            int free = 0;
            for (int i = 0; i < g->hn[seat]; i++)
                free += g->hand[seat][i] != g->taken && !is_pending(g, g->hand[seat][i]);
            int best = -1, best_meld = -1, best_value = -1;
            int single = g->no_discard && g->hn[seat] == 2;
            for (int f = 0; f < nf; f++) {
                int card = face[f];
                if (g->hn[seat] == 1) {
                    if (!g->floating && !g->no_discard) continue;
                } else if (!single) {
                    int rest_free = free - (card != g->taken && !is_pending(g, card));
                    if (rest_free == 0) continue;
                }
                int value = value_of(g, card);
                for (int m = 0; m < g->nm; m++)
                    if (lay_off_options(g, &g->melds[m], card, NULL) &&
                        (best < 0 || value > best_value || (value == best_value && m < best_meld))) {
                        best = card;
                        best_meld = m;
                        best_value = value;
                    }
            }
            if (best >= 0) {
                Meld options[2];
                lay_off_options(g, &g->melds[best_meld], best, options);
                hand_remove(g, seat, best);
                g->melds[best_meld] = options[0];
                pending_remove(g, best);
                short c = (short)best;
                event(g, EV_LAY_OFF, seat, &c, 1, best_meld, &options[0], 1, NULL, 0);
                if (!g->hn[seat]) return after_play(g, seat);
                continue;
            }
        }
        if (g->joker_swap && (g->laid[seat] || !g->needs_laid)) {
            int done = 0;
            for (int f = 0; f < nf && !done; f++) {
                int card = face[f], index = IDX(g, card);
                if (index == 52) continue;
                for (int m = 0; m < g->nm && !done; m++) {
                    int wanted = 0;
                    for (int i = 0; i < g->melds[m].n; i++) wanted |= g->melds[m].stands[i] == index;
                    if (!wanted) continue;
                    Meld fresh;
                    int joker;
                    if (!try_swap(g, seat, card, m, &fresh, &joker)) continue;
                    hand_remove(g, seat, card);
                    hand_add(g, seat, joker);
                    g->melds[m] = fresh;
                    if (g->must_play) g->pending[g->npending++] = (short)joker;
                    g->traded |= 1ULL << DECK(g, joker);
                    short cards[2] = {(short)card, (short)joker};
                    event(g, EV_SWAP, seat, cards, 2, m, &fresh, 1, NULL, 0);
                    done = 1;
                }
            }
            if (done) continue;
        }
        /* Discard */
        short options[53];
        int no = discardable(g, seat, options, 1);
        if (!no) {
            if (g->no_discard && g->hn[seat] == 1) {
                event(g, EV_END_TURN, seat, NULL, 0, -1, NULL, 0, NULL, 0);
                return 0;
            }
            g->error = ERR_UNSUPPORTED; /* the engine's bot would find no action */
            return 1;
        }
        sort_discards(g, options, no);
        int chosen = options[0];
        if (!g->laid[seat]) {
            unsigned char counts[53];
            hand_counts(g, seat, counts);
            int now = -1;
            for (int i = 0; i < no; i++) {
                int x = IDX(g, options[i]);
                counts[x]--;
                if (!could_improve(g, counts, g->hn[seat] - 1, x)) {
                    chosen = options[i];
                    counts[x]++;
                    break;
                }
                if (now < 0) {
                    counts[x]++;
                    now = distance_after_draw(g, counts);
                    counts[x]--;
                }
                int d = bot_distance(g, counts, now);
                counts[x]++;
                if (d == now) {
                    chosen = options[i];
                    break;
                }
            }
        }
        hand_remove(g, seat, chosen);
        g->disc[g->nd++] = (short)chosen;
        event1(g, EV_DISCARD, seat, chosen);
        if (!g->hn[seat]) {
            event(g, EV_GO_OUT, seat, NULL, 0, -1, NULL, 0, NULL, 0);
            g->went_out = seat;
            g->ended = ENDED_OUT;
            end_round(g);
            return 1;
        }
        if (g->liverpool) liverpool_call(g, seat, chosen);
        if (g->rummy) rummy_call(g, seat, chosen);
        return 0;
    }
}

static void run(G *g, int at);

static void play(G *g, unsigned long long seed) {
    int n = g->n;
    mt_seed(&g->mt, seed);
    g->dealer = randbelow(&g->mt, n);
    /* the policies go by position, counted from the dealer */
    for (int k = 0; k < n; k++) g->policy[(g->dealer + 1 + k) % n] = g->by_position[k];
    int order[MAXP];
    for (int i = 0; i < n; i++) order[i] = (g->dealer + 1 + i) % n;
    if (g->cut_bonus) {
        int cut = 1 + randbelow(&g->mt, g->nshoe - 1);
        int cutter = (g->dealer - 1 + n) % n;
        int perfect = cut == n * g->deal + 1;
        int scores[2] = {cut, perfect};
        event(g, EV_CUT, cutter, NULL, 0, -1, NULL, 0, scores, 2);
        if (perfect) g->penalties[cutter] -= g->cut_bonus;
    }
    short pool[MAXSHOE];
    for (int i = 0; i < g->nshoe; i++) pool[i] = (short)i;
    shuffle(&g->mt, pool, g->nshoe);
    int np = g->nshoe;
    short dealt[MAXP][64];
    for (int k = 0; k < g->deal; k++)
        for (int i = 0; i < n; i++) {
            int seat = order[i];
            dealt[seat][k] = pool[--np];
            hand_add(g, seat, pool[np]);
        }
    int upcard = pool[--np];
    memcpy(g->stock, pool, sizeof(short) * np);
    g->ns = np;
    g->disc[0] = (short)upcard;
    g->nd = 1;
    for (int i = 0; i < n; i++) event(g, EV_DEAL, order[i], dealt[order[i]], g->deal, -1, NULL, 0, NULL, 0);
    event1(g, EV_UPCARD, -1, upcard);
    g->current = order[0];
    run(g, AT_TURN);
}

/* The round from `at` to its end: a new turn of g->current (AT_TURN), or a resumed state's
 * phase (the state loaded by load_state). Each step is the one the engine takes from the
 * same phase (phases.py), with the bots' answers. */
static void run(G *g, int at) {
    int n = g->n, seat = g->current;
    switch (at) {
    case AT_DRAW:
        goto draw;
    case AT_BUY:
        /* phases._next_buyer, then _close_buy_window: the draw decision (before_draw) or
         * the draw from the stock (after_decline) */
        run_window(g, g->queue, g->nq, g->requests, g->nr);
        if (g->before_draw) goto draw;
        goto stock;
    case AT_PLAY:
        goto play;
    case AT_CALL:
        /* GreedyBot always calls: the seat asked now (phases.on_call) */
        if (g->liverpool) {
            liverpool_claim(g, g->queue[0], g->disc[g->nd - 1], g->offered_by);
        } else {
            rummy_penalty(g, g->queue[0], g->disc[g->nd - 1], g->offered_by);
            seat = g->offered_by; /* _next_turn_from(offender) */
        }
        goto next;
    case AT_CALL_DISCARD:
        call_discard(g, g->to_act);
        goto next;
    default:
        break;
    }
    for (;;) {
        seat = g->current;
        /* phases._start_turn */
        g->turns++;
        g->last_turn[seat] = g->turns;
        g->taken = -1;
        g->npending = 0;
        if (g->before_draw) buy_window(g);
    draw:;
        /* GreedyBot._draw */
        int top = g->nd ? g->disc[g->nd - 1] : -1, take = 0;
        if (top >= 0) {
            int wanted = g->laid[seat] ? fits_table(g, top, g->melds, g->nm) : improves(g, seat, top);
            take = wanted && (g->hn[seat] > 0 || fits_table(g, top, g->melds, g->nm));
        }
        g->seat_turns[seat]++;
        if (take) {
            g->nd--;
            hand_add(g, seat, top);
            g->taken = top;
            event1(g, EV_TAKE_DISCARD, seat, top);
        } else {
            event1(g, EV_DECLINE, seat, top);
            if (!g->before_draw) buy_window(g);
        stock:;
            int card = pop_stock(g);
            if (card < 0) {
                event(g, EV_PILES_EXHAUSTED, seat, NULL, 0, -1, NULL, 0, NULL, 0);
                g->ended = ENDED_EXHAUSTED;
                end_round(g);
                return;
            }
            hand_add(g, seat, card);
            event1(g, EV_DRAW_STOCK, seat, card);
        }
    play:
        if (play_phase(g, seat)) return;
    next:
        /* phases._next_turn_from */
        if (g->turn_limit < 0 && g->turns >= UNENDING_TURNS) {
            g->error = ERR_UNENDING; /* a resumed round without a limit that does not end */
            return;
        }
        if (g->turn_limit >= 0 && g->turns >= g->turn_limit) {
            event(g, EV_PILES_EXHAUSTED, -1, NULL, 0, -1, NULL, 0, NULL, 0);
            g->ended = ENDED_LIMIT;
            end_round(g);
            return;
        }
        g->current = (seat + 1) % n;
    }
}

/* ---------------------------------------------------------------------------------------
 * Python interface */

static void near_init(G *g) {
    int reach = g->s.run_size - 1;
    for (int index = 0; index < 52; index++) {
        uint64_t bits = 1ULL << 52;
        int va = index % 13 + 2;
        int pa[2] = {va, va == 14 ? 1 : va};
        for (int other = 0; other < 52; other++) {
            int ok = other % 13 == index % 13;
            if (!ok && other / 13 == index / 13) {
                int vb = other % 13 + 2;
                int pb[2] = {vb, vb == 14 ? 1 : vb};
                for (int a = 0; a < 2 && !ok; a++)
                    for (int b = 0; b < 2 && !ok; b++) ok = abs(pa[a] - pb[b]) <= reach;
            }
            if (ok) bits |= 1ULL << other;
        }
        g->near[index] = bits;
    }
}

static int config_game(G *g, const int *c, PyObject *rules) {
    memset(g, 0, offsetof(G, hand));
    g->n = c[C_PLAYERS];
    g->decks = c[C_DECKS];
    g->njk = c[C_JOKERS];
    g->deal = c[C_DEAL];
    g->sets = c[C_SETS];
    g->runs = c[C_RUNS];
    if (g->n < 2 || g->n > MAXP || g->decks < 1 || g->decks > 8 || g->njk < 0 || g->njk > 32 ||
        g->deal < 1 || g->deal > 52 || g->sets < 0 || g->sets > MAXSETS || g->runs < 0 ||
        g->runs > MAXRUNS || g->n * g->deal + 1 > 52 * g->decks + g->njk) {
        PyErr_SetString(PyExc_ValueError, "config out of range");
        return -1;
    }
    g->nshoe = 52 * g->decks + g->njk;
    if (read_meld_rules(rules, &g->s) < 0) return -1;
    g->min_cards = g->sets * g->s.set_size + g->runs * g->s.run_size;
    g->buying = c[C_BUYING];
    g->before_draw = c[C_BUY_TIMING];
    g->priority = c[C_BUY_PRIORITY];
    g->penalty_cards = c[C_PENALTY_CARDS];
    g->buy_limit = c[C_BUY_LIMIT];
    g->face = c[C_FACE];
    g->negative = c[C_NEGATIVE];
    g->cut_bonus = c[C_CUT_BONUS];
    g->turn_limit = c[C_TURN_LIMIT];
    g->joker_swap = c[C_JOKER_SWAP];
    g->trade_once = c[C_TRADE_ONCE];
    g->floating = c[C_FLOATING];
    g->no_discard = c[C_NO_DISCARD];
    g->liverpool = c[C_LIVERPOOL];
    g->rummy = c[C_RUMMY];
    g->reshuffle = c[C_RESHUFFLE];
    g->must_play = c[C_MUST_PLAY];
    g->needs_laid = c[C_NEEDS_LAID];
    near_init(g);
    g->ev = NULL;
    g->nev = g->evcap = 0;
    return 0;
}

static void reset_round(G *g) {
    memset(g->hn, 0, sizeof(g->hn));
    g->ns = g->nd = g->nm = 0;
    memset(g->laid, 0, sizeof(g->laid));
    memset(g->buys, 0, sizeof(g->buys));
    for (int i = 0; i < MAXP; i++) {
        g->last_turn[i] = -1;
        g->laid_turn[i] = -1;
    }
    memset(g->penalties, 0, sizeof(g->penalties));
    memset(g->seat_turns, 0, sizeof(g->seat_turns));
    g->turns = 0;
    g->taken = -1;
    g->npending = 0;
    g->traded = 0;
    g->went_out = -1;
    g->ended = ENDED_EXHAUSTED;
    g->error = ERR_NONE;
    g->reshuffles = 0;
    g->max_reshuffles = -1;
    g->nev = 0;
    cache_reset(g->cache);
}

static PyObject *tuple_by_position(const G *g, const int *by_seat) {
    PyObject *t = PyTuple_New(g->n);
    if (!t) return NULL;
    for (int k = 0; k < g->n; k++) {
        int v = by_seat[(g->dealer + 1 + k) % g->n];
        PyObject *x = v < 0 ? Py_NewRef(Py_None) : PyLong_FromLong(v);
        if (!x) {
            Py_DECREF(t);
            return NULL;
        }
        PyTuple_SET_ITEM(t, k, x);
    }
    return t;
}

static const char play_doc[] =
    "play(config, rules, seeds, policies, events=False) -> list\n\n"
    "Play one round per seed (the engine's game seed). config: the integers of\n"
    "rummykit.agents.rollouts.CONFIG_FIELDS; rules: rummykit._native.encode_meld_rules(rules);\n"
    "policies: per seed, one policy per position (0 never,\n"
    "1 improves, 2 always). Each result: (error, ended, out, laid_down, seat_turns,\n"
    "points, buys, dealer, events), per-seat tuples by position (1 first), out the\n"
    "position that went out (1-based) or None, events the int32 bytes of the log or None.";

static PyObject *py_play(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"config", "rules", "seeds", "policies", "events", NULL};
    PyObject *config, *rules, *seeds, *policies;
    int record = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOO|p", kwlist, &config, &rules, &seeds,
                                     &policies, &record))
        return NULL;
    int c[C_COUNT];
    if (read_ints(config, c, C_COUNT, "config") < 0) return NULL;
    G *g = malloc(sizeof(G));
    if (!g) return PyErr_NoMemory();
    if (config_game(g, c, rules) < 0) {
        free(g);
        return NULL;
    }
    g->record = record;
    g->cache = calloc(1, sizeof(Cache));
    if (!g->cache) {
        free(g);
        return PyErr_NoMemory();
    }
    PyObject *seed_seq = PySequence_Fast(seeds, "seeds"), *policy_seq = NULL, *out = NULL;
    if (!seed_seq) goto done;
    policy_seq = PySequence_Fast(policies, "policies");
    if (!policy_seq) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seed_seq);
    if (PySequence_Fast_GET_SIZE(policy_seq) != count) {
        PyErr_SetString(PyExc_ValueError, "one policy tuple per seed");
        goto done;
    }
    out = PyList_New(count);
    if (!out) goto done;
    for (Py_ssize_t r = 0; r < count; r++) {
        unsigned long long seed = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seed_seq, r));
        if (PyErr_Occurred()) goto fail;
        int by_position[MAXP];
        if (read_ints(PySequence_Fast_GET_ITEM(policy_seq, r), by_position, g->n, "policies") < 0)
            goto fail;
        reset_round(g);
        memcpy(g->by_position, by_position, sizeof(by_position));
        /* The round touches no Python object and no static state: other threads run. */
        Py_BEGIN_ALLOW_THREADS
        play(g, seed);
        Py_END_ALLOW_THREADS
        if (g->error == ERR_MEMORY) {
            PyErr_NoMemory();
            goto fail;
        }
        int points[MAXP];
        for (int seat = 0; seat < g->n; seat++) {
            int v = 0;
            for (int i = 0; i < g->hn[seat]; i++) v += value_of(g, g->hand[seat][i]);
            points[seat] = v;
        }
        PyObject *laid = tuple_by_position(g, g->laid_turn);
        PyObject *turns = tuple_by_position(g, g->seat_turns);
        PyObject *pts = tuple_by_position(g, points);
        PyObject *buys = tuple_by_position(g, g->buys);
        PyObject *events = record ? PyBytes_FromStringAndSize((const char *)g->ev, sizeof(int) * g->nev)
                                  : Py_NewRef(Py_None);
        PyObject *went = g->went_out < 0 ? Py_NewRef(Py_None)
                                         : PyLong_FromLong((g->went_out - g->dealer - 1 + 2 * g->n) % g->n + 1);
        PyObject *item = NULL;
        if (laid && turns && pts && buys && events && went)
            item = Py_BuildValue("(iiOOOOOiO)", g->error, g->ended, went, laid, turns, pts, buys,
                                 g->dealer, events);
        Py_XDECREF(laid);
        Py_XDECREF(turns);
        Py_XDECREF(pts);
        Py_XDECREF(buys);
        Py_XDECREF(events);
        Py_XDECREF(went);
        if (!item) goto fail;
        PyList_SET_ITEM(out, r, item);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(seed_seq);
    Py_XDECREF(policy_seq);
    free(g->ev);
    free(g->cache);
    free(g);
    return out;
}

/* -- a round taken up from a given state (rummykit.agents.rollouts) */

/* The state, as rummykit.agents.rollouts.encode_state writes it: one run of integers,
 *   phase (AT_DRAW..AT_CALL_DISCARD), current, to_act, turns, taken (-1: none),
 *   reshuffles, max_reshuffles (-1: none), offered_by (-1: none),
 *   per seat: laid, buys, last_turn, penalties, k, k card ids,
 *   k, the stock (top last); k, the discard pile (top last);
 *   k melds, each: owner, kind (0 set, 1 run), rank, suit, start, c, c card ids,
 *     c stands (-1 a natural, else the card index a joker stands for);
 *   k, the pending jokers; k, the numbers of the jokers traded once;
 *   k, the seats still to be asked in the window (the one asked now first);
 *   k, the seats that asked to buy (first_call).
 * Every card of the shoe once. NULL if it loaded, else what is wrong. */
#define MAXSTATE (32 + MAXP * 8 + 4 * MAXSHOE + MAXMELDS * 8 + 4 * MAXMC * 4)
typedef struct {
    const int *x;
    int n, at;
} Reader;

static int next_int(Reader *r, int *out) {
    if (r->at >= r->n) return 0;
    *out = r->x[r->at++];
    return 1;
}

static const char *read_cards(Reader *r, G *g, short *out, int *count, int most, unsigned char *seen) {
    int k;
    if (!next_int(r, &k) || k < 0 || k > most) return "a card count is out of range";
    for (int i = 0; i < k; i++) {
        int id;
        if (!next_int(r, &id) || id < 0 || id >= g->nshoe) return "a card id is out of the shoe";
        if (seen[id]++) return "a card is in two places";
        out[i] = (short)id;
    }
    *count = k;
    return NULL;
}

static const char *read_seats(Reader *r, const G *g, int *out, int *count, int most) {
    int k;
    if (!next_int(r, &k) || k < 0 || k > most) return "a seat count is out of range";
    for (int i = 0; i < k; i++)
        if (!next_int(r, &out[i]) || out[i] < 0 || out[i] >= g->n) return "a seat is out of range";
    *count = k;
    return NULL;
}

static int held_by(const G *g, int seat, int id) {
    for (int i = 0; i < g->hn[seat]; i++)
        if (g->hand[seat][i] == id) return 1;
    return 0;
}

static const char *load_state(G *g, const int *x, int nx, int *at) {
    Reader r = {x, nx, 0};
    unsigned char seen[MAXSHOE] = {0};
    short cards[MAXSHOE];
    int k, n = g->n;
    const char *why;
    int head[8];
    for (int i = 0; i < 8; i++)
        if (!next_int(&r, &head[i])) return "the state is cut short";
    *at = head[0];
    g->current = head[1];
    g->to_act = head[2];
    g->turns = head[3];
    g->taken = head[4];
    g->reshuffles = head[5];
    g->max_reshuffles = head[6];
    g->offered_by = head[7];
    if (*at < 0 || *at >= AT_COUNT) return "the phase is not one the core takes up";
    if (g->current < 0 || g->current >= n || g->to_act < 0 || g->to_act >= n)
        return "a seat is out of range";
    if (g->turns < 0 || g->reshuffles < 0 || g->max_reshuffles < -1) return "a count is negative";
    if (g->offered_by < -1 || g->offered_by >= n) return "a seat is out of range";
    for (int seat = 0; seat < n; seat++) {
        if (!next_int(&r, &g->laid[seat]) || !next_int(&r, &g->buys[seat]) ||
            !next_int(&r, &g->last_turn[seat]) || !next_int(&r, &g->penalties[seat]))
            return "the state is cut short";
        if ((why = read_cards(&r, g, cards, &k, MAXSHOE, seen))) return why;
        for (int i = 0; i < k; i++) hand_add(g, seat, cards[i]);
    }
    if ((why = read_cards(&r, g, g->stock, &g->ns, MAXSHOE, seen))) return why;
    if ((why = read_cards(&r, g, g->disc, &g->nd, MAXSHOE, seen))) return why;
    if (!next_int(&r, &g->nm) || g->nm < 0 || g->nm > MAXMELDS) return "too many melds";
    for (int m = 0; m < g->nm; m++) {
        Meld *meld = &g->melds[m];
        int f[5];
        for (int i = 0; i < 5; i++)
            if (!next_int(&r, &f[i])) return "the state is cut short";
        g->owner[m] = f[0];
        meld->kind = f[1];
        meld->rank = f[2];
        meld->suit = f[3];
        meld->start = f[4];
        if (f[0] < 0 || f[0] >= n || (f[1] != 0 && f[1] != 1)) return "a meld is malformed";
        if ((why = read_cards(&r, g, meld->cards, &meld->n, MAXMC, seen))) return why;
        for (int i = 0; i < meld->n; i++) {
            int stand;
            if (!next_int(&r, &stand) || stand < -1 || stand > 51 ||
                (stand < 0) != (IDX(g, meld->cards[i]) != 52))
                return "a meld's jokers are malformed";
            meld->stands[i] = (signed char)stand;
        }
    }
    unsigned char pend[MAXSHOE] = {0};
    if ((why = read_cards(&r, g, g->pending, &g->npending, MAXSHOE, pend))) return why;
    if (!next_int(&r, &k) || k < 0 || k > g->njk) return "the traded jokers are out of range";
    g->traded = 0;
    for (int i = 0; i < k; i++) {
        int number;
        if (!next_int(&r, &number) || number < 0 || number >= g->njk) return "a traded joker is out of range";
        g->traded |= 1ULL << number;
    }
    if ((why = read_seats(&r, g, g->queue, &g->nq, n - 1))) return why;
    if ((why = read_seats(&r, g, g->requests, &g->nr, n - 1))) return why;
    if (r.at != r.n) return "the state has integers left over";
    for (int i = 0; i < g->nshoe; i++)
        if (!seen[i]) return "a card of the shoe is missing";
    for (int i = 0; i < g->npending; i++)
        if (IDX(g, g->pending[i]) != 52 || !held_by(g, g->current, g->pending[i]))
            return "a pending joker is not in the hand of the seat to play";
    /* (the card taken may since have been melded: it is not always in the hand) */
    if (g->taken < -1 || g->taken >= g->nshoe) return "the card taken is out of the shoe";
    switch (*at) {
    case AT_DRAW:
    case AT_PLAY:
        if (g->to_act != g->current) return "the seat to act is not the current seat";
        break;
    case AT_BUY:
        if (!g->nd || !g->nq || g->queue[0] != g->to_act) return "the buy window is malformed";
        break;
    case AT_CALL:
        if (!g->nd || !g->nq || g->queue[0] != g->to_act || g->offered_by < 0)
            return "the call window is malformed";
        break;
    case AT_CALL_DISCARD:
        if (g->taken < 0) return "the call window is malformed";
        break;
    }
    return NULL;
}

static const char resume_doc[] =
    "resume(config, rules, state, seeds, policies, events=False) -> list\n\n"
    "Play the round of `state` (rummykit.agents.rollouts.encode_state's integers) on to its end\n"
    "once per seed (the seed of the round's random.Random), the bots' buying policies by\n"
    "seat. config: rollouts.CONFIG_FIELDS (turn_limit -1: none); rules:\n"
    "rummykit._native.encode_meld_rules. Each result: (error, points, went_out, events),\n"
    "points by seat as the round's scores (signed, penalties in), went_out a seat or None,\n"
    "events the int32 bytes of the log from the state on, or None.";

static PyObject *py_resume(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *kwlist[] = {"config", "rules", "state", "seeds", "policies", "events", NULL};
    PyObject *config, *rules, *state, *seeds, *policies;
    int record = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OOOOO|p", kwlist, &config, &rules, &state,
                                     &seeds, &policies, &record))
        return NULL;
    int c[C_COUNT];
    if (read_ints(config, c, C_COUNT, "config") < 0) return NULL;
    int *x = malloc(sizeof(int) * MAXSTATE);
    G *base = malloc(sizeof(G)), *g = malloc(sizeof(G));
    Cache *cache = calloc(1, sizeof(Cache));
    PyObject *seed_seq = NULL, *out = NULL;
    if (!x || !base || !g || !cache) {
        PyErr_NoMemory();
        goto done;
    }
    Py_ssize_t nx = read_some_ints(state, x, MAXSTATE, 0, "state");
    if (nx < 0) goto done;
    if (config_game(base, c, rules) < 0) goto done;
    base->cache = cache;
    reset_round(base);
    base->record = record;
    if (read_ints(policies, base->policy, base->n, "policies") < 0) goto done;
    for (int seat = 0; seat < base->n; seat++)
        if (base->policy[seat] < POLICY_NEVER || base->policy[seat] > POLICY_ALWAYS) {
            PyErr_SetString(PyExc_ValueError, "policies: each is 0, 1 or 2");
            goto done;
        }
    int at;
    const char *why = load_state(base, x, (int)nx, &at);
    if (why) {
        PyErr_Format(PyExc_ValueError, "state: %s", why);
        goto done;
    }
    seed_seq = PySequence_Fast(seeds, "seeds");
    if (!seed_seq) goto done;
    Py_ssize_t count = PySequence_Fast_GET_SIZE(seed_seq);
    out = PyList_New(count);
    if (!out) goto done;
    for (Py_ssize_t i = 0; i < count; i++) {
        unsigned long long seed = PyLong_AsUnsignedLongLong(PySequence_Fast_GET_ITEM(seed_seq, i));
        if (PyErr_Occurred()) goto fail;
        /* The distance cache is the same function of a hand for every seed: kept. */
        memcpy(g, base, sizeof(G));
        g->ev = NULL;
        g->nev = g->evcap = 0;
        Py_BEGIN_ALLOW_THREADS
        mt_seed(&g->mt, seed);
        run(g, at);
        Py_END_ALLOW_THREADS
        if (g->error == ERR_MEMORY) {
            free(g->ev);
            PyErr_NoMemory();
            goto fail;
        }
        PyObject *points = PyTuple_New(g->n);
        PyObject *events = record && !g->error
                               ? PyBytes_FromStringAndSize((const char *)g->ev, sizeof(int) * g->nev)
                               : Py_NewRef(Py_None);
        free(g->ev);
        PyObject *item = NULL;
        if (points && events) {
            int ok = 1;
            for (int seat = 0; seat < g->n && ok; seat++) {
                PyObject *v = PyLong_FromLong(g->error ? 0 : g->final[seat]);
                if (!v) ok = 0;
                else PyTuple_SET_ITEM(points, seat, v);
            }
            if (ok)
                item = g->went_out < 0 ? Py_BuildValue("(iOOO)", g->error, points, Py_None, events)
                                       : Py_BuildValue("(iOiO)", g->error, points, g->went_out, events);
        }
        Py_XDECREF(points);
        Py_XDECREF(events);
        if (!item) goto fail;
        PyList_SET_ITEM(out, i, item);
    }
    goto done;
fail:
    Py_CLEAR(out);
done:
    Py_XDECREF(seed_seq);
    free(x);
    free(cache);
    free(base);
    free(g);
    return out;
}

/* -- hooks for the tests: the solver and the generator on their own */

static int read_counts(PyObject *seq, unsigned char *counts) {
    int c[53];
    if (read_ints(seq, c, 53, "counts") < 0) return -1;
    for (int i = 0; i < 53; i++) {
        if (c[i] < 0 || c[i] > 255) {
            PyErr_SetString(PyExc_ValueError, "counts must be 0..255");
            return -1;
        }
        counts[i] = (unsigned char)c[i];
    }
    return 0;
}

static const char distance_doc[] =
    "distance(rules, sets, runs, counts, within=-1) -> int\n\n"
    "search.contract_distance of the hand with counts[i] cards of index i (53 counts),\n"
    "or with within >= 0 whether search.contract_within(..., within) holds (0 or 1).\n"
    "rules: rummykit._native.encode_meld_rules(rules).";

static PyObject *py_distance(PyObject *self, PyObject *args) {
    PyObject *rules, *counts_seq;
    int sets, runs, cards = -1;
    if (!PyArg_ParseTuple(args, "OiiO|i", &rules, &sets, &runs, &counts_seq, &cards)) return NULL;
    if (sets < 0 || sets > MAXSETS || runs < 0 || runs > MAXRUNS || sets + runs == 0) {
        PyErr_SetString(PyExc_ValueError, "sets and runs out of range");
        return NULL;
    }
    Solver *s = malloc(sizeof(Solver));
    if (!s) return PyErr_NoMemory();
    unsigned char counts[53];
    if (read_meld_rules(rules, s) < 0 || read_counts(counts_seq, counts) < 0) {
        free(s);
        return NULL;
    }
    RHand h;
    rhand_from_counts(&h, counts);
    int v = cards < 0 ? distance(s, &h, sets, runs) : within(s, &h, sets, runs, cards);
    free(s);
    return PyLong_FromLong(v);
}

static const char randoms_doc[] =
    "randoms(seed, bounds, shuffle=0) -> (draws, permutation)\n\n"
    "random.Random(seed): _randbelow(b) for each b of bounds, then shuffle(list(range(shuffle))).";

static PyObject *py_randoms(PyObject *self, PyObject *args) {
    unsigned long long seed;
    PyObject *bounds;
    int n = 0;
    if (!PyArg_ParseTuple(args, "KO|i", &seed, &bounds, &n)) return NULL;
    if (n < 0 || n > MAXSHOE) {
        PyErr_SetString(PyExc_ValueError, "shuffle size out of range");
        return NULL;
    }
    PyObject *fast = PySequence_Fast(bounds, "bounds");
    if (!fast) return NULL;
    MT mt;
    mt_seed(&mt, seed);
    Py_ssize_t nb = PySequence_Fast_GET_SIZE(fast);
    PyObject *draws = PyList_New(nb);
    if (!draws) {
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nb; i++) {
        long b = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (b < 1 || b > (1L << 30)) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "bounds must be 1..2**30");
            Py_DECREF(fast);
            Py_DECREF(draws);
            return NULL;
        }
        PyList_SET_ITEM(draws, i, PyLong_FromLong(randbelow(&mt, (int)b)));
    }
    Py_DECREF(fast);
    short x[MAXSHOE];
    for (int i = 0; i < n; i++) x[i] = (short)i;
    shuffle(&mt, x, n);
    PyObject *perm = PyList_New(n);
    if (!perm) {
        Py_DECREF(draws);
        return NULL;
    }
    for (int i = 0; i < n; i++) PyList_SET_ITEM(perm, i, PyLong_FromLong(x[i]));
    return Py_BuildValue("(NN)", draws, perm);
}

/* -- completion.round_seed: numpy.random.SeedSequence(seed, spawn_key=key + (index,))
 * .generate_state(2, uint64)[0] >> 1, the game seed of a round (bit_generator.pyx) */
#define SS_POOL 4
#define SS_INIT_A 0x43b0d7e5U
#define SS_MULT_A 0x931e8875U
#define SS_INIT_B 0x8b51f9ddU
#define SS_MULT_B 0x58f38dedU
#define SS_MIX_L 0xca01f9ddU
#define SS_MIX_R 0x4973f715U

static uint32_t ss_hashmix(uint32_t value, uint32_t *hash) {
    value ^= *hash;
    *hash *= SS_MULT_A;
    value *= *hash;
    value ^= value >> 16;
    return value;
}

static uint32_t ss_mix(uint32_t x, uint32_t y) {
    uint32_t r = SS_MIX_L * x - SS_MIX_R * y;
    return r ^ (r >> 16);
}

/* the 32-bit words of n, least first ([0] for 0: _int_to_uint32_array) */
static int ss_words(unsigned long long n, uint32_t *out) {
    int k = 0;
    if (!n) out[k++] = 0;
    while (n) {
        out[k++] = (uint32_t)(n & 0xffffffffULL);
        n >>= 32;
    }
    return k;
}

static unsigned long long game_seed(unsigned long long seed, const long *key, int nkey) {
    uint32_t entropy[4 + 2 * 16], pool[SS_POOL];
    int n = ss_words(seed, entropy);
    while (n < SS_POOL) entropy[n++] = 0; /* a spawn key follows: pad to the pool size */
    for (int i = 0; i < nkey; i++) n += ss_words((unsigned long long)key[i], entropy + n);
    uint32_t hash = SS_INIT_A;
    for (int i = 0; i < SS_POOL; i++) pool[i] = ss_hashmix(i < n ? entropy[i] : 0, &hash);
    for (int src = 0; src < SS_POOL; src++)
        for (int dst = 0; dst < SS_POOL; dst++)
            if (src != dst) pool[dst] = ss_mix(pool[dst], ss_hashmix(pool[src], &hash));
    for (int src = SS_POOL; src < n; src++)
        for (int dst = 0; dst < SS_POOL; dst++) pool[dst] = ss_mix(pool[dst], ss_hashmix(entropy[src], &hash));
    uint32_t state[2], h = SS_INIT_B;
    for (int i = 0; i < 2; i++) {
        uint32_t v = pool[i % SS_POOL];
        v ^= h;
        h *= SS_MULT_B;
        v *= h;
        v ^= v >> 16;
        state[i] = v;
    }
    return ((unsigned long long)state[1] << 32 | state[0]) >> 1;
}

static const char game_seeds_doc[] =
    "game_seeds(seed, key, indices) -> list[int]\n\n"
    "The game seed completion.round_seed(seed, key, index)[0] of each index (seed < 2**64,\n"
    "key and indices non-negative and below 2**63).";

static PyObject *py_game_seeds(PyObject *self, PyObject *args) {
    unsigned long long seed;
    PyObject *key_seq, *indices;
    if (!PyArg_ParseTuple(args, "KOO", &seed, &key_seq, &indices)) return NULL;
    PyObject *kf = PySequence_Fast(key_seq, "key");
    if (!kf) return NULL;
    Py_ssize_t nk = PySequence_Fast_GET_SIZE(kf);
    long key[16];
    if (nk > 15) {
        Py_DECREF(kf);
        PyErr_SetString(PyExc_ValueError, "key: at most 15 integers");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < nk; i++) {
        key[i] = PyLong_AsLong(PySequence_Fast_GET_ITEM(kf, i));
        if (key[i] < 0) {
            Py_DECREF(kf);
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "key: non-negative integers");
            return NULL;
        }
    }
    Py_DECREF(kf);
    PyObject *fast = PySequence_Fast(indices, "indices");
    if (!fast) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    PyObject *out = PyList_New(n);
    if (!out) {
        Py_DECREF(fast);
        return NULL;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        key[nk] = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        PyObject *v = NULL;
        if (key[nk] < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "indices: non-negative integers");
        } else {
            v = PyLong_FromUnsignedLongLong(game_seed(seed, key, (int)nk + 1));
        }
        if (!v) {
            Py_DECREF(fast);
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    Py_DECREF(fast);
    return out;
}

static PyMethodDef methods[] = {
    {"game_seeds", py_game_seeds, METH_VARARGS, game_seeds_doc},
    {"play", (PyCFunction)(void (*)(void))py_play, METH_VARARGS | METH_KEYWORDS, play_doc},
    {"resume", (PyCFunction)(void (*)(void))py_resume, METH_VARARGS | METH_KEYWORDS, resume_doc},
    {"distance", py_distance, METH_VARARGS, distance_doc},
    {"randoms", py_randoms, METH_VARARGS, randoms_doc},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_table",
    "The compiled round simulator of rummykit.odds.play.fastplay and rummykit.agents.rollouts (see the comment atop _table.c).", -1,
    methods, NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__table(void) {
    contract_init();
    PyObject *m = PyModule_Create(&module);
    if (!m) return NULL;
    PyObject *names = PyTuple_New(EV_COUNT);
    if (!names) {
        Py_DECREF(m);
        return NULL;
    }
    for (int i = 0; i < EV_COUNT; i++) PyTuple_SET_ITEM(names, i, PyUnicode_FromString(EVENT_NAMES[i]));
    if (PyModule_AddObject(m, "EVENT_KINDS", names) < 0) {
        Py_DECREF(names);
        Py_DECREF(m);
        return NULL;
    }
    if (PyModule_AddIntConstant(m, "CONFIG_FIELDS", C_COUNT) < 0 || add_rules_layout(m) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
