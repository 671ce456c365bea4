/*
 * The contract solver of the fast round simulator (see _contract.h and
 * docs/fast-table.md): search.py's functions, each named where it is reproduced.
 */
#include <stdlib.h>
#include <string.h>

#include "_contract.h"

/* ---------------------------------------------------------------------------------------
 * The contract solver (search.py's _Solver), built once per rule set from the meld rules
 * Python encodes (rummykit._native.encode_meld_rules: the limits and the run windows,
 * never derived here); only the windows' bits and cells are laid out for the search. */


uint32_t CARD_BITS[52];

void contract_init(void) {
    for (int i = 0; i < 52; i++) CARD_BITS[i] = i % 13 == 12 ? (1U << 1) | (1U << 14) : 1U << (i % 13 + 2);
}

const char *solver_init(Solver *s, const int *r, int n) {
    if (n < RULES_HEADER) return "fewer integers than the header of the meld rules";
    int nw = r[R_WINDOWS];
    if (nw < 1 || nw > MAXW) return "the number of run windows is not 1..MAXW";
    if (n != RULES_HEADER + WINDOW_FIELDS * nw) return "not WINDOW_FIELDS integers per run window";
    s->set_size = r[R_SET_SIZE];
    s->run_size = r[R_RUN_SIZE];
    s->max_jokers = r[R_MAX_JOKERS] < 0 ? BIG : r[R_MAX_JOKERS];
    s->set_nat = r[R_SET_NAT];
    s->run_nat = r[R_RUN_NAT];
    s->set_lo = r[R_SET_LO];
    s->set_full = r[R_SET_FULL];
    s->set_joker_cap = r[R_SET_JOKER_CAP];
    s->run_full = r[R_RUN_FULL];
    s->lo_pos = r[R_LO_POS];
    s->hi_pos = r[R_HI_POS];
    s->separated = r[R_SEPARATED];
    /* What the solver's arrays and divisions need (the rules' own checks are Python's). */
    if (s->set_size < 1 || s->run_size < 1 || s->set_lo < 1 || s->set_full < 1 || s->run_full < 1 ||
        r[R_MAX_JOKERS] < -1 || s->set_joker_cap < 0)
        return "a meld size or joker limit out of range";
    if (s->lo_pos < 1 || s->hi_pos > 14 || s->lo_pos > s->hi_pos) return "run positions not within 1..14";
    s->nw = nw;
    s->longest = 0;
    for (int w = 0; w < nw; w++) {
        const int *f = r + RULES_HEADER + WINDOW_FIELDS * w;
        int start = f[0], length = f[1];
        if (length < 1 || start < s->lo_pos || start + length - 1 > s->hi_pos)
            return "a run window outside the run positions";
        s->wstart[w] = start;
        s->wlen[w] = length;
        s->caps[w] = f[2];
        if (length > s->longest) s->longest = length;
        if (w == 0 || f[2] > s->cap_most) s->cap_most = f[2];
        uint32_t bits = 0;
        for (int p = start; p < start + length; p++) bits |= 1U << p;
        s->wbits[w] = bits;
        for (int suit = 0; suit < 4; suit++)
            for (int i = 0; i < length; i++) s->cells[suit][w][i] = (signed char)cell_of(suit, start + i);
    }
    return NULL;
}


void rhand_from_counts(RHand *h, const unsigned char *counts) {
    memset(h, 0, sizeof(*h));
    for (int i = 0; i < 52; i++) {
        int c = counts[i];
        if (!c) continue;
        h->cnt[i] = c;
        h->tot[i % 13] += c;
        h->masks[i / 13] |= CARD_BITS[i];
        if (c > 1) h->repeats |= 1 << (i / 13);
        h->ncards += c;
    }
    h->jokers = counts[52];
    h->ncards += counts[52];
}

/* (bit tricks: without -mpopcnt __builtin_popcount is a library call) */
static int popcount32(uint32_t x) {
    x = x - ((x >> 1) & 0x55555555U);
    x = (x & 0x33333333U) + ((x >> 2) & 0x33333333U);
    return (int)((((x + (x >> 4)) & 0x0f0f0f0fU) * 0x01010101U) >> 24);
}

/* _Solver.table: usable windows (naturals >= run_nat, holes <= max_jokers), window order */
static int solver_table(const Solver *s, uint32_t mask, int *ws, int *hs) {
    int n = 0;
    for (int w = 0; w < s->nw; w++) {
        int naturals = popcount32(mask & s->wbits[w]);
        int holes = s->wlen[w] - naturals;
        if (naturals >= s->run_nat && holes <= s->max_jokers) {
            ws[n] = w;
            hs[n] = holes;
            n++;
        }
    }
    return n;
}

static void sort_ints(int *a, int n) {
    for (int i = 1; i < n; i++) {
        int v = a[i], j = i - 1;
        while (j >= 0 && a[j] > v) {
            a[j + 1] = a[j];
            j--;
        }
        a[j + 1] = v;
    }
}

/* the `sets` largest of tot, descending */
static void top_counts(const int *tot, int sets, int *top) {
    int sorted[13];
    memcpy(sorted, tot, sizeof(sorted));
    sort_ints(sorted, 13);
    for (int i = 0; i < sets; i++) top[i] = sorted[12 - i];
}

/* _Solver._set_marginals over `tot` (length n): pairs (cost, r) */
static int set_marginals(const Solver *s, const int *tot, int n, int sets, int *cost, int *rank) {
    int sorted[13];
    memcpy(sorted, tot, sizeof(int) * n);
    sort_ints(sorted, n);
    int top = sorted[n - sets];
    int m = 0;
    for (int r = 0; r < n; r++) {
        int c = tot[r];
        if (c < s->set_lo || c < top) continue;
        int previous = 0, kmax = c / s->set_lo;
        if (kmax > sets) kmax = sets;
        for (int k = 1; k <= kmax; k++) {
            int value = k * s->set_size - c;
            if (value < 0) value = 0;
            cost[m] = value - previous;
            rank[m] = r;
            m++;
            previous = value;
        }
    }
    /* sort the pairs (cost, r) ascending, as Python sorts tuples */
    for (int i = 1; i < m; i++) {
        int cv = cost[i], rv = rank[i], j = i - 1;
        while (j >= 0 && (cost[j] > cv || (cost[j] == cv && rank[j] > rv))) {
            cost[j + 1] = cost[j];
            rank[j + 1] = rank[j];
            j--;
        }
        cost[j + 1] = cv;
        rank[j + 1] = rv;
    }
    return m;
}

static int set_cost(const Solver *s, const int *tot, int sets) {
    if (sets == 0) return 0;
    int top[MAXSETS] = {0}, cost[13 * MAXSETS], rank[13 * MAXSETS];
    top_counts(tot, sets, top);
    int m = set_marginals(s, top, sets, sets, cost, rank);
    if (m < sets) return BIG;
    int sum = 0;
    for (int i = 0; i < sets; i++) sum += cost[i];
    return sum;
}


/* _Solver.set_plan: 1 and the plan's sets (rank ascending), or 0 */
static int set_plan(const Solver *s, const int *tot, int jokers, int sets, Plan *plan) {
    if (set_cost(s, tot, sets) > jokers) return 0;
    plan->nsets = 0;
    if (sets == 0) return 1;
    int cost[13 * MAXSETS], rank[13 * MAXSETS], counts[13] = {0};
    set_marginals(s, tot, 13, sets, cost, rank);
    for (int i = 0; i < sets; i++) counts[rank[i]]++;
    for (int r = 0; r < 13; r++)
        if (counts[r]) {
            plan->srank[plan->nsets] = r;
            plan->sk[plan->nsets] = counts[r];
            plan->nsets++;
        }
    return 1;
}

/* _Solver.run_lower_bound */
static int run_lower_bound(const Solver *s, const RHand *h, int runs) {
    int ws[MAXW], hs[MAXW];
    if (runs == 1) {
        int best = BIG;
        for (int suit = 0; suit < 4; suit++) {
            if (!h->masks[suit]) continue;
            int n = solver_table(s, h->masks[suit], ws, hs);
            sort_ints(hs, n);
            if (n && hs[0] < best) best = hs[0];
        }
        return best <= h->jokers ? best : BIG;
    }
    int seen[4 * MAXRUNS * MAXRUNS], ns = 0;
    for (int suit = 0; suit < 4; suit++) {
        if (!h->masks[suit]) continue;
        int n = solver_table(s, h->masks[suit], ws, hs);
        sort_ints(hs, n);
        int repeat = (h->repeats >> suit & 1) ? runs : 1;
        for (int i = 0; i < n && i < runs; i++) {
            if (hs[i] > h->jokers) break;
            for (int k = 0; k < repeat; k++) seen[ns++] = hs[i];
        }
    }
    if (ns < runs) return BIG;
    sort_ints(seen, ns);
    int sum = 0;
    for (int i = 0; i < runs; i++) sum += seen[i];
    return sum;
}

typedef struct {
    int suit, start, len;
} Chosen;

static int fits_separation(const Solver *s, int suit, int start, int length, const Chosen *chosen,
                           int nchosen) {
    if (!s->separated) return 1;
    int end = start + length - 1;
    for (int i = 0; i < nchosen; i++)
        if (chosen[i].suit == suit && !(chosen[i].start + chosen[i].len < start || end + 1 < chosen[i].start))
            return 0;
    return 1;
}

/* The next combination of k of n (indices ascending), lexicographic; 0 after the last. */
static int next_combination(int *idx, int k, int n) {
    int i = k - 1;
    while (i >= 0 && idx[i] == n - k + i) i--;
    if (i < 0) return 0;
    idx[i]++;
    for (int j = i + 1; j < k; j++) idx[j] = idx[j - 1] + 1;
    return 1;
}

typedef struct {
    const Solver *s;
    int cnt[52], tot[13];
    uint32_t masks[4];
    int sets, swaps;
    Chosen chosen[MAXRUNS];
    unsigned char used[MAXRUNS][14];
    int nchosen;
    Plan *plan;
} RunSearch;

/* _Solver._runs */
static int runs_search(RunSearch *R, int jokers, int runs, int suit0, int w0) {
    const Solver *s = R->s;
    if (runs == 0) {
        if (!set_plan(s, R->tot, jokers, R->sets, R->plan)) return 0;
        R->plan->nruns = R->nchosen;
        for (int i = 0; i < R->nchosen; i++) {
            R->plan->suit[i] = R->chosen[i].suit;
            R->plan->start[i] = R->chosen[i].start;
            R->plan->len[i] = R->chosen[i].len;
            memcpy(R->plan->used[i], R->used[i], 14);
        }
        return 1;
    }
    int need = s->run_nat;
    int ws[MAXW], hs[MAXW];
    for (int suit = suit0; suit < 4; suit++) {
        uint32_t mask = R->masks[suit];
        if (!mask) continue;
        int nt = solver_table(s, mask, ws, hs);
        for (int t = 0; t < nt; t++) {
            int w = ws[t], holes = hs[t];
            if ((suit == suit0 && w < w0) || holes > jokers) continue;
            int start = s->wstart[w], length = s->wlen[w];
            if (s->separated && !fits_separation(s, suit, start, length, R->chosen, R->nchosen)) continue;
            const signed char *cells = s->cells[suit][w];
            int present[14], np = 0;
            for (int i = 0; i < length; i++)
                if (R->cnt[cells[i]]) present[np++] = cells[i];
            int wanted[14], nwanted = 0, spare = 0;
            if (R->swaps) {
                int mj = s->max_jokers < jokers ? s->max_jokers : jokers;
                spare = mj - holes;
                if (np - need < spare) spare = np - need;
                if (runs > 1) {
                    memcpy(wanted, present, sizeof(int) * np);
                    nwanted = np;
                } else {
                    for (int i = 0; i < np; i++)
                        if (R->sets && R->tot[present[i] % 13] >= s->set_lo) wanted[nwanted++] = present[i];
                }
            }
            /* the options: () first, then combinations of wanted by size */
            int k = 0, idx[14];
            for (;;) {
                unsigned char given[52];
                memset(given, 0, sizeof(given));
                for (int i = 0; i < k; i++) given[wanted[idx[i]]] = 1;
                uint32_t cleared = 0;
                for (int i = 0; i < np; i++) {
                    int c = present[i];
                    if (given[c]) continue;
                    R->cnt[c]--;
                    R->tot[c % 13]--;
                    if (!R->cnt[c]) cleared |= CARD_BITS[c];
                }
                R->masks[suit] = mask & ~cleared;
                Chosen *ch = &R->chosen[R->nchosen];
                ch->suit = suit;
                ch->start = start;
                ch->len = length;
                for (int i = 0; i < length; i++) {
                    int c = cells[i];
                    int in_used = 0;
                    for (int q = 0; q < np; q++)
                        if (present[q] == c && !given[c]) in_used = 1;
                    R->used[R->nchosen][i] = (unsigned char)in_used;
                }
                R->nchosen++;
                int found = runs_search(R, jokers - holes - k, runs - 1, suit, w);
                R->nchosen--;
                R->masks[suit] = mask;
                for (int i = 0; i < np; i++) {
                    int c = present[i];
                    if (given[c]) continue;
                    R->cnt[c]++;
                    R->tot[c % 13]++;
                }
                if (found) return 1;
                /* the next option */
                if (k > 0 && next_combination(idx, k, nwanted)) continue;
                k++;
                if (k > spare || k > nwanted) break;
                for (int i = 0; i < k; i++) idx[i] = i;
            }
        }
    }
    return 0;
}

static int run_search_pass(const Solver *s, const RHand *h, int sets, int runs, int swaps, Plan *plan) {
    RunSearch R;
    R.s = s;
    memcpy(R.cnt, h->cnt, sizeof(R.cnt));
    memcpy(R.tot, h->tot, sizeof(R.tot));
    memcpy(R.masks, h->masks, sizeof(R.masks));
    R.sets = sets;
    R.swaps = swaps;
    R.nchosen = 0;
    R.plan = plan;
    return runs_search(&R, h->jokers, runs, 0, 0);
}

/* search._solve: 1 and the plan, or 0 */
int solve(const Solver *s, const RHand *h, int sets, int runs, Plan *plan) {
    if (h->ncards < sets * s->set_size + runs * s->run_size) return 0;
    int jokers = h->jokers;
    if (!runs) {
        if (!set_plan(s, h->tot, jokers, sets, plan)) return 0;
        plan->nruns = 0;
        return 1;
    }
    int lower = set_cost(s, h->tot, sets);
    if (lower > jokers) return 0;
    lower += run_lower_bound(s, h, runs);
    if (lower > jokers) return 0;
    if (run_search_pass(s, h, sets, runs, 0, plan)) return 1;
    if (jokers && (sets || runs > 1)) return run_search_pass(s, h, sets, runs, 1, plan);
    return 0;
}

/* ---------------------------------------------------------------------------------------
 * Contract distance (search.py's _Distance) */

static void set_group_cost(int c, int k, int full, int cap, int *ga, int *gb) {
    int holes = k * full - c;
    if (holes < 0) holes = 0;
    int q = holes / k, rem = holes % k;
    int x = q + 1 - cap, y = q - cap;
    *ga = rem * (x > 0 ? x : 0) + (k - rem) * (y > 0 ? y : 0);
    *gb = holes;
}

/* every composition of `sets` into `sets` parts (search._compositions), its (A, B) */
static void compositions(const Solver *s, const int *top, int sets, int *ks, int i, int left,
                         int *pa, int *pb, int *n) {
    if (i == sets - 1) {
        ks[i] = left;
        int a = 0, b = 0;
        for (int q = 0; q < sets; q++)
            if (ks[q]) {
                int ga, gb;
                set_group_cost(top[q], ks[q], s->set_full, s->set_joker_cap, &ga, &gb);
                a += ga;
                b += gb;
            }
        pa[*n] = a;
        pb[*n] = b;
        (*n)++;
        return;
    }
    for (int first = 0; first <= left; first++) {
        ks[i] = first;
        compositions(s, top, sets, ks, i + 1, left - first, pa, pb, n);
    }
}

/* _Solver.set_placements: the (A, B) pairs; returns their number, the floors in fa, fb */
static int set_placements(const Solver *s, const int *tot, int sets, int *pa, int *pb, int *fa,
                          int *fb) {
    if (sets == 0) {
        pa[0] = pb[0] = 0;
        *fa = *fb = 0;
        return 1;
    }
    int top[MAXSETS];
    top_counts(tot, sets, top);
    int ks[MAXSETS], n = 0;
    compositions(s, top, sets, ks, 0, sets, pa, pb, &n);
    *fa = pa[0];
    *fb = pb[0];
    for (int i = 1; i < n; i++) {
        if (pa[i] < *fa) *fa = pa[i];
        if (pb[i] < *fb) *fb = pb[i];
    }
    return n;
}

#define MAXPAIRS 7000 /* compositions of 8 sets into 8 parts: 6435 */
typedef struct {
    const Solver *s;
    int pa[MAXPAIRS], pb[MAXPAIRS]; /* set_placements' pairs (no static state: the
                                     * core runs without the GIL) */
    int sets, runs, jokers, best, goal, floor_a, floor_b;
    int nentries;
    short eh[4 * MAXW], esuit[4 * MAXW], ew[4 * MAXW];
    Chosen chosen[MAXRUNS];
    int nchosen;
} Dist;

static void dist_entries(Dist *D, const RHand *h) {
    const Solver *s = D->s;
    int holes[4][MAXW], fewest_by_suit[4];
    for (int suit = 0; suit < 4; suit++) {
        int f = BIG;
        for (int w = 0; w < s->nw; w++) {
            holes[suit][w] = s->wlen[w] - popcount32(h->masks[suit] & s->wbits[w]);
            if (holes[suit][w] < f) f = holes[suit][w];
        }
        fewest_by_suit[suit] = f;
    }
    int fewest = fewest_by_suit[0];
    for (int suit = 1; suit < 4; suit++)
        if (fewest_by_suit[suit] < fewest) fewest = fewest_by_suit[suit];
    int cap = s->cap_most, others = D->runs - 1;
    int others_a = others * (fewest - cap > 0 ? fewest - cap : 0) + D->floor_a;
    int others_b = others * fewest + D->floor_b - D->jokers;
    int most = fewest;
    for (;;) {
        if (most >= s->longest) break;
        int x = others_a + (most + 1 - cap > 0 ? most + 1 - cap : 0), y = others_b + most + 1;
        if ((x > y ? x : y) < D->best)
            most++;
        else
            break;
    }
    int n = 0;
    for (int hh = fewest; hh <= most; hh++)
        for (int suit = 0; suit < 4; suit++)
            for (int w = 0; w < s->nw; w++)
                if (holes[suit][w] == hh) {
                    D->eh[n] = (short)hh;
                    D->esuit[n] = (short)suit;
                    D->ew[n] = (short)w;
                    n++;
                }
    D->nentries = n;
}

static int imax(int a, int b) { return a > b ? a : b; }

static void dist_last_run(Dist *D, int *cnt, int a, int b, int j0) {
    const Solver *s = D->s;
    for (int j = j0; j < D->nentries; j++) {
        int h0 = D->eh[j], suit = D->esuit[j], w = D->ew[j];
        if (imax(a + imax(0, h0 - s->cap_most) + D->floor_a, b + h0 - D->jokers) >= D->best) return;
        int start = s->wstart[w], length = s->wlen[w];
        if (s->separated && !fits_separation(s, suit, start, length, D->chosen, D->nchosen)) continue;
        int h = length;
        for (int i = 0; i < length; i++)
            if (cnt[(int)s->cells[suit][w][i]]) h--;
        int d = imax(a + imax(0, h - s->caps[w]), b + h - D->jokers);
        if (d < D->best) {
            D->best = d;
            if (d <= D->goal) return;
        }
    }
}

static void dist_search(Dist *D, int *cnt, int *tot, int a, int b, int runs_left, int j0) {
    const Solver *s = D->s;
    int jokers = D->jokers;
    if (runs_left == 0) {
        int fa, fb;
        int n = set_placements(s, tot, D->sets, D->pa, D->pb, &fa, &fb);
        for (int i = 0; i < n; i++) {
            int d = imax(a + D->pa[i], b + D->pb[i] - jokers);
            if (d < D->best) D->best = d;
        }
        return;
    }
    if (runs_left == 1 && !D->sets) {
        dist_last_run(D, cnt, a, b, j0);
        return;
    }
    int swaps = jokers > 0 && (D->sets || D->runs > 1);
    int cap_most = s->cap_most;
    int floor_a = D->floor_a, floor_b = D->floor_b - jokers;
    int empty_tried = 0;
    for (int j = j0; j < D->nentries; j++) {
        int h0 = D->eh[j], suit = D->esuit[j], w = D->ew[j];
        int over0 = h0 > cap_most ? h0 - cap_most : 0;
        int low_a = a + runs_left * over0 + floor_a;
        int low_b = b + runs_left * h0 + floor_b;
        if (imax(low_a, low_b) >= D->best) return;
        int start = s->wstart[w], length = s->wlen[w];
        if (s->separated && !fits_separation(s, suit, start, length, D->chosen, D->nchosen)) continue;
        const signed char *cells = s->cells[suit][w];
        int present[14], np = 0;
        for (int i = 0; i < length; i++)
            if (cnt[(int)cells[i]]) present[np++] = cells[i];
        if (!np) {
            if (empty_tried >> suit & 1) continue;
            empty_tried |= 1 << suit;
        }
        int holes = length - np;
        int cap = s->caps[w];
        int rest_a = low_a - over0, rest_b = low_b - h0;
        if (imax(rest_a + (holes > cap ? holes - cap : 0), rest_b + holes) >= D->best) continue;
        int kmax = 0;
        if (swaps) {
            kmax = (cap < jokers ? cap : jokers) - holes;
            if (kmax > np) kmax = np;
        }
        D->chosen[D->nchosen].suit = suit;
        D->chosen[D->nchosen].start = start;
        D->chosen[D->nchosen].len = length;
        D->nchosen++;
        int k = 0, idx[14];
        int stop = 0;
        for (;;) {
            int hh = holes + k;
            if (k && imax(rest_a + (hh > cap ? hh - cap : 0), rest_b + hh) >= D->best) break;
            unsigned char given[14] = {0};
            for (int i = 0; i < k; i++) given[idx[i]] = 1;
            for (int i = 0; i < np; i++)
                if (!given[i]) {
                    cnt[present[i]]--;
                    tot[present[i] % 13]--;
                }
            dist_search(D, cnt, tot, a + (hh > cap ? hh - cap : 0), b + hh, runs_left - 1, j);
            for (int i = 0; i < np; i++)
                if (!given[i]) {
                    cnt[present[i]]++;
                    tot[present[i] % 13]++;
                }
            if (D->best <= D->goal) {
                stop = 1;
                break;
            }
            if (k > 0 && next_combination(idx, k, np)) continue;
            k++;
            if (k > kmax) break;
            for (int i = 0; i < k; i++) idx[i] = i;
        }
        D->nchosen--;
        if (stop) return;
    }
}

static int dist_run(const Solver *s, const RHand *h, int sets, int runs, int best, int goal) {
    Dist D;
    D.s = s;
    D.sets = sets;
    D.runs = runs;
    D.jokers = h->jokers;
    D.best = best;
    D.goal = goal;
    set_placements(s, h->tot, sets, D.pa, D.pb, &D.floor_a, &D.floor_b);
    D.nchosen = 0;
    D.nentries = 0;
    if (runs) dist_entries(&D, h);
    int cnt[52], tot[13];
    memcpy(cnt, h->cnt, sizeof(cnt));
    memcpy(tot, h->tot, sizeof(tot));
    dist_search(&D, cnt, tot, 0, 0, runs, 0);
    return D.best;
}

/* search._unlimited_distance */
int distance(const Solver *s, const RHand *h, int sets, int runs) {
    Plan plan;
    if (solve(s, h, sets, runs, &plan)) return 0;
    int best = sets * s->set_full + runs * s->run_full;
    int d = dist_run(s, h, sets, runs, best, 1);
    return d > 1 ? d : 1;
}

/* search.contract_within */
int within(const Solver *s, const RHand *h, int sets, int runs, int cards) {
    if (cards == 0) {
        Plan plan;
        return solve(s, h, sets, runs, &plan);
    }
    return dist_run(s, h, sets, runs, cards + 1, cards) <= cards;
}


/* ---------------------------------------------------------------------------------------
 * Contract distance with copies limited (search.contract_distance with decks): the same
 * value as search._cheapest_additions' A*, by iterative deepening over the same moves
 * (add one natural with a copy left). docs/fast-distance.md is the design note.
 *
 * A threshold t holds when some t naturals, each index within its copies, make the
 * contract. The unlimited distance is a lower bound of the remaining cost, so a hand
 * with k cards added is abandoned unless within(hand, t - k); the multisets of added
 * cards are walked in one order (indices non-decreasing), each once. The first t that
 * holds, counting up from the unlimited distance, is the A*'s answer. */

/* Whether `left` more cards, indices from `first` on, each within `room`, make the
 * contract; the hand `counts` is known to be within `left` of it (unlimited) and not to
 * hold it. counts and room come back as they were. */
static int limited_step(const Solver *s, unsigned char *counts, unsigned char *room, int sets,
                        int runs, int left, int first) {
    for (int i = first; i < 52; i++) {
        if (!room[i]) continue;
        counts[i]++;
        room[i]--;
        RHand h;
        rhand_from_counts(&h, counts);
        int found;
        if (left == 1) {
            Plan plan;
            found = solve(s, &h, sets, runs, &plan);
        } else {
            found = within(s, &h, sets, runs, left - 1) &&
                    limited_step(s, counts, room, sets, runs, left - 1, i);
        }
        counts[i]--;
        room[i]++;
        if (found) return 1;
    }
    return 0;
}

int limited_distance(const Solver *s, const unsigned char *counts, int sets, int runs, int decks) {
    RHand h;
    rhand_from_counts(&h, counts);
    int lower = distance(s, &h, sets, runs);
    if (lower == 0) return 0;
    /* Adding cards never loses a contract, so none can be made unless the hand with
     * every natural at `decks` copies holds it. */
    unsigned char work[53], room[52];
    for (int i = 0; i < 52; i++) work[i] = (unsigned char)decks;
    work[52] = counts[52];
    RHand full;
    rhand_from_counts(&full, work);
    Plan plan;
    if (!solve(s, &full, sets, runs, &plan)) return -1;
    memcpy(work, counts, 53);
    for (int i = 0; i < 52; i++) room[i] = (unsigned char)(decks - counts[i]);
    for (int t = lower;; t++)
        if (limited_step(s, work, room, sets, runs, t, 0)) return t;
}
