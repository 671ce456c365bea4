/*
 * The contract solver of the fast round simulator: search.py's _solve (find_contract's
 * plan), _Distance (contract_distance, contract_within with copies unlimited), step for
 * step, on a hand given as counts of card indices, and contract_distance with copies
 * limited. _contract.c implements it; _table.c (rummykit.odds._table) and _distance.c
 * (rummykit._distance, the engine's fast path) use it. docs/fast-table.md is the design note.
 */
#ifndef RUMMYKIT_CONTRACT_H
#define RUMMYKIT_CONTRACT_H

#include <stdint.h>

#define BIG (1 << 30)
#define MAXW 200  /* run windows: positions x lengths */
#define MAXSETS 8 /* sets in a contract */
#define MAXRUNS 8 /* runs in a contract */

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
void solver_init(Solver *s, int set_size, int run_size, int max_jokers, int set_nat, int run_nat,
                 int ace_low, int ace_high, int separated);
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
