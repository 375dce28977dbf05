/* The C core of one Preferans deal for the vector environment (preferans.env.vector).
 *
 * A three-player deal on a fresh sheet, as the Python engine plays it (src/preferans/deal*.py,
 * auction.py, tricks.py) under the conventions a pc_rules holds: the auction, the talon, the
 * discard, the contract, the defence (whist, pass, half-whist, open or closed), the play,
 * the all-pass and misere.  Action ids, the observation tensor and the score key follow
 * src/preferans/env/spec.py, tensors.py and vector_score.py.  One idea a file:
 *
 *   pc_rng.c       the seeded generator and the shuffle of a deal
 *   pc_auction.c   the auction: legal calls and a call applied
 *   pc_defence.c   after the auction: discard, contract, whist and defence mode
 *   pc_play.c      the tricks
 *   pc_observe.c   the observation tensor of a seat
 *   pc_info.c      the information-state tensor of a seat, from a deal and its log
 *   pc_score.c     what the finished deal was, as a key of the score table
 *   pc_step.c      one action id applied, the legal mask, a deal started
 */
#ifndef PREFERANS_PC_H
#define PREFERANS_PC_H

#include <stdint.h>

#define PC_NUM_ACTIONS 118
#define PC_OBS_SIZE 594
#define PC_INFO_SIZE 5551
#define PC_MAX_CALLS 64 /* tensors.MAX_CALLS */

/* action ids (spec.py) */
#define PC_FIRST_BID 32
#define PC_MISERE 57
#define PC_PASS 58
#define PC_WHIST 59
#define PC_HALF 60
#define PC_OPEN 61
#define PC_CLOSED 62
#define PC_RESIGN 63
#define PC_REFUSE 64

/* phases: their index in tensors.PHASES */
enum {
    PC_PH_AUCTION = 3,
    PC_PH_DISCARD = 4,
    PC_PH_CONTRACT = 5,
    PC_PH_DEFENCE = 7,
    PC_PH_MODE = 8,
    PC_PH_PLAY = 11,
    PC_PH_DONE = 13
};

/* deal kinds: 1 + their index in spec.KINDS (0: not known yet) */
enum {
    PC_K_NONE = 0,
    PC_K_ALLPASS = 1,
    PC_K_CONTRACT = 2,
    PC_K_MISERE = 3,
    PC_K_PASSED = 4,
    PC_K_HALFWHIST = 5,
    PC_K_RESIGNED = 6
};

/* defence calls: their index in spec.DEFENCE_CALLS */
enum { PC_D_WHIST = 0, PC_D_PASS = 1, PC_D_HALF = 2 };

#define PC_MISERE_BID 25 /* a bid's index: ladder step 0..24, misere 25 */

/* The conventions that change the deal's course (the scoring is a table: pc_score.c). */
typedef struct {
    uint8_t seniority;        /* auction == "seniority" */
    uint8_t jump_bids;
    uint8_t min_level;        /* rules.min_bid_level(0) */
    uint8_t misere_outbid_by; /* 9 or 10 */
    uint8_t talon_refusal;
    uint8_t resignation;
    uint8_t tens_whisted;
    uint8_t stalingrad;
    uint8_t stalingrad_sixes;
    uint8_t half_levels;      /* bit (level - 6) set for each of half_whist_levels */
    uint8_t half_whist_reopen;
    uint8_t whist_pass_half;
    uint8_t lone_closed_only; /* over_greedy and not over_greedy_two_only */
    uint8_t open_before_lead;
    uint8_t misere_exposure;  /* 0 after_lead, 1 after_declarer_lead, 2 before_lead */
    uint8_t allpass_talon_lead;
    uint8_t score_q;          /* 4 when talon prizes are scored, else 1 */
    uint8_t score_r;          /* 2 when the talon may be refused, else 1 */
} pc_rules;

typedef struct {
    uint32_t hands[3];     /* cards held now, by seat */
    uint32_t played[3];    /* cards each hand has played in this deal */
    uint32_t discard;      /* the declarer's discard */
    uint8_t talon[2];
    uint8_t dealer, first; /* first hand: the dealer's left */
    uint8_t phase;
    uint8_t kind;

    /* the auction */
    uint8_t to_bid;        /* the seat to call */
    int8_t high;           /* bid index of the highest bid, -1 none */
    int8_t high_seat;
    int8_t misere_seat;
    int8_t high_key2;      /* twice the ladder key of the highest bid, -2 none */
    uint8_t passed;        /* seat masks */
    uint8_t bid_made;
    uint8_t called;

    /* the contract and the defence */
    int8_t declarer;
    int8_t bid;            /* the winning bid (index) */
    int8_t contract;       /* the contract named (index), -1 none */
    int8_t trump;          /* suit, -1 none (no trumps, all-pass) */
    int8_t pending;        /* the first card of a two-step discard, -1 none */
    uint8_t defenders[2];
    uint8_t ndef;
    uint8_t def_seat[4], def_call[4];
    uint8_t def_to_act;
    uint8_t nwhisters, whister;
    int8_t half_whister;
    int8_t open_defence;   /* -1 none, 0 closed, 1 open */
    uint8_t forced, talon_refused;
    uint8_t exposed, pending_expose; /* seat masks */
    uint8_t controller[3];

    /* the play */
    uint8_t ntricks;
    uint8_t trick_n, trick_seat[3], trick_card[3];
    uint8_t hand_to_play;
    int8_t talon_card;     /* the all-pass talon card leading the trick in progress, -1 none */
    uint8_t talon_turned;
    uint8_t tricks_won[3];
} pc_deal;

/* What the information state recalls of a deal that its pc_deal does not keep: the calls of
 * the auction and the cards played, in order (pc_log_before, pc_log_after around pc_apply). */
typedef struct {
    uint8_t ncalls, nplays;
    uint8_t call_seat[PC_MAX_CALLS], call_id[PC_MAX_CALLS];
    uint8_t play_seat[30], play_card[30];
    int8_t trick_talon[10]; /* the all-pass talon card that led each trick, -1 none */
} pc_log;

/* pc_rng.c */
uint64_t pc_next(uint64_t *state);
uint64_t pc_seed(uint64_t seed, uint64_t index);
void pc_shuffle(uint64_t *rng, uint8_t cards[32], uint8_t *dealer);

/* pc_auction.c */
void pc_auction_legal(const pc_rules *r, const pc_deal *d, uint64_t mask[2]);
int pc_auction_apply(const pc_rules *r, pc_deal *d, int id);

/* pc_defence.c */
void pc_after_auction(const pc_rules *r, pc_deal *d);
void pc_defence_legal(const pc_rules *r, const pc_deal *d, uint64_t mask[2]);
int pc_defence_apply(const pc_rules *r, pc_deal *d, int id);

/* pc_play.c */
void pc_start_play(const pc_rules *r, pc_deal *d);
uint32_t pc_playable(const pc_deal *d);
int pc_play_apply(const pc_rules *r, pc_deal *d, int card);

/* pc_observe.c */
void pc_observe(const pc_deal *d, int seat, int min_level, float *out);

/* pc_info.c */
typedef struct {
    uint8_t phase, seat, hand, ntricks, trick_n;
    int8_t talon_card;
} pc_log_mark;
pc_log_mark pc_log_before(const pc_deal *d);
void pc_log_after(pc_log *log, pc_log_mark mark, int id);
void pc_info_state(const pc_deal *d, const pc_log *log, int seat, int min_level, float *out);

/* pc_score.c */
int64_t pc_score_key(const pc_rules *r, const pc_deal *d);
int64_t pc_score_keys(const pc_rules *r);

/* pc_step.c */
void pc_start(const pc_rules *r, pc_deal *d, const uint8_t cards[32], int dealer);
int pc_to_act(const pc_deal *d);
void pc_legal(const pc_rules *r, const pc_deal *d, uint64_t mask[2]);
int pc_apply(const pc_rules *r, pc_deal *d, int id);

static inline int pc_popcount(uint32_t x) { return __builtin_popcount(x); }

#endif
