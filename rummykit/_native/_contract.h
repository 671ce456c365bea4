/*
 * The contract solver of the fast round simulator: search.py's _solve (find_contract's
 * plan), _Distance (contract_distance, contract_within with copies unlimited), step for
 * step, on a hand given as counts of card indices, and contract_distance with copies
 * limited. _contract.c implements it; _table.c (rummykit._native._table) and _distance.c
 * (rummykit._native._distance, the engine's fast path) use it. docs/fast-table.md is the
 * design note.
 */
#ifndef RUMMYKIT_CONTRACT_H
#define RUMMYKIT_CONTRACT_H

#include <stdint.h>

#define BIG (1 << 30)
#define MAXW 200  /* run windows: positions x lengths */
#define MAXSETS 8 /* sets in a contract */
#define MAXRUNS 8 /* runs in a contract */

/* The meld rules as rummykit._native.encode_meld_rules hands them over (its
 * MELD_RULE_FIELDS, in this order), then WINDOW_FIELDS integers per run window: the
 * numbers of rules.meld_limits and the windows of rules.run_windows with the most jokers
 * of a run of their length (MeldLimits.run_jokers), computed once in Python, never here. */
enum {
    R_SET_SIZE,      /* min_set_size */
    R_RUN_SIZE,      /* min_run_size */
    R_MAX_JOKERS,    /* max_jokers_per_meld, -1: no limit */
    R_SET_NAT,       /* min_naturals_in_set */
    R_RUN_NAT,       /* min_naturals_in_run */
    R_SET_LO,        /* MeldLimits.set_naturals: the fewest naturals of a rank that make a set */
    R_SET_FULL,      /* MeldLimits.set_cards */
    R_SET_JOKER_CAP, /* MeldLimits.set_jokers */
    R_RUN_FULL,      /* MeldLimits.run_cards */
    R_LO_POS,        /* the first run position (RuleSet.run_positions) */
    R_HI_POS,        /* the last */
    R_SEPARATED,     /* MeldLimits.separated */
    R_WINDOWS,       /* the number of windows that follow */
    RULES_HEADER
};
#define WINDOW_FIELDS 3 /* first position, length, most jokers */
#define MAX_RULE_INTS (RULES_HEADER + WINDOW_FIELDS * MAXW)

/* Per-rule-set tables (search._Solver): the run windows, their cells and joker caps. */
typedef struct {
    int set_size, run_size, max_jokers, set_nat, run_nat, set_lo, separated;
    int lo_pos, hi_pos, longest, set_full, set_joker_cap, run_full, cap_most;
    int nw;
    int wstart[MAXW], wlen[MAXW], caps[MAXW];
    uint32_t wbits[MAXW];
    signed char cells[4][MAXW][14];
} Solver;

/* A hand reduced to counts (search._Hand): copies per index, naturals per rank, the run
 * positions held per suit (bit p; an ace sets 1 and 14), jokers, cards, suits with copies. */
typedef struct {
    int cnt[52];
    int tot[13];
    uint32_t masks[4];
    int jokers, ncards, repeats;
} RHand;

/* A solution (search._Plan): runs as (suit, start, length, natural-used flag per
 * position), sets as (rank index, number of sets). */
typedef struct {
    int nruns;
    int suit[MAXRUNS], start[MAXRUNS], len[MAXRUNS];
    unsigned char used[MAXRUNS][14];
    int nsets;
    int srank[MAXSETS], sk[MAXSETS];
} Plan;

/* The run positions of each natural card index as bits (the ace is 1 and 14). */
extern uint32_t CARD_BITS[52];

/* The index of the card at run position p (1..14) of suit. */
static inline int cell_of(int suit, int p) { return suit * 13 + ((p == 1 || p == 14) ? 12 : p - 2); }

void contract_init(void);
/* The solver of the meld rules r (n integers, as above): NULL, or what does not fit (the
 * solver's fixed sizes) or is inconsistent, in words; s is then not usable. */
const char *solver_init(Solver *s, const int *r, int n);
void rhand_from_counts(RHand *h, const unsigned char *counts);
/* search._solve: 1 and the plan, or 0 */
int solve(const Solver *s, const RHand *h, int sets, int runs, Plan *plan);
/* search._unlimited_distance */
int distance(const Solver *s, const RHand *h, int sets, int runs);
/* search.contract_within */
int within(const Solver *s, const RHand *h, int sets, int runs, int cards);
/* search.contract_distance with decks: counts (53, each natural at most decks), copies
 * limited to decks; -1 when no natural cards can make the contract */
int limited_distance(const Solver *s, const unsigned char *counts, int sets, int runs, int decks);

#endif
