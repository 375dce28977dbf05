/* The information-state tensor of a seat (tensors.INFORMATION_STATE_PIECES, one deal, no
 * sheet): the table as the seat sees it now (the observation tensor's pieces) with the deal
 * recalled in order: the cards dealt to the seat, every call of the auction, every defence
 * call, every trick with its leader and the all-pass talon card that led it.  Offsets are
 * those of docs/research.md; the observation's pieces are copied from pc_observe. */
#include <string.h>

#include "pc.h"

enum {
    AT_DEALT = 23,
    AT_AUCTION = 279,
    CALL_WIDTH = 3 + 57,
    AT_DEFENCE = 4154,
    DEF_WIDTH = 3 + 6,
    MAX_DEFENCE = 6,
    AT_TRICKS = 4208,
    TRICK_WIDTH = 3 + 96 + 32
};

/* [from, to, length]: the observation tensor's pieces in the information state */
static const int COPIED[][3] = {
    {0, 0, 23},      /* seat, dealer, phase, to_act */
    {23, 55, 224},   /* hand, pending_discard, own_discard, talon, exposed */
    {514, 4119, 35}, /* declarer, contract, kind */
    {471, 5518, 6},  /* hand_sizes, tricks_won */
    {567, 5524, 27}, /* flags, sheet */
};

pc_log_mark pc_log_before(const pc_deal *d)
{
    pc_log_mark m = {d->phase, (uint8_t)pc_to_act(d), d->hand_to_play, d->ntricks, d->trick_n,
                     d->talon_card};
    return m;
}

void pc_log_after(pc_log *log, pc_log_mark m, int id)
{
    if (m.phase == PC_PH_AUCTION && log->ncalls < PC_MAX_CALLS) {
        log->call_seat[log->ncalls] = m.seat;
        log->call_id[log->ncalls++] = (uint8_t)id;
    } else if (m.phase == PC_PH_PLAY && log->nplays < 30) {
        if (m.trick_n == 0 && m.ntricks < 10)
            log->trick_talon[m.ntricks] = m.talon_card;
        log->play_seat[log->nplays] = m.hand;
        log->play_card[log->nplays++] = (uint8_t)id;
    }
}

static void cards(float *out, uint32_t mask)
{
    while (mask) {
        out[__builtin_ctz(mask)] = 1.0f;
        mask &= mask - 1;
    }
}

void pc_info_state(const pc_deal *d, const pc_log *log, int seat, int min_level, float *out)
{
#define REL(x) (((x) - seat + 3) % 3)
    float obs[PC_OBS_SIZE];
    pc_observe(d, seat, min_level, obs);
    memset(out, 0, PC_INFO_SIZE * sizeof(float));
    for (size_t k = 0; k < sizeof COPIED / sizeof COPIED[0]; k++)
        memcpy(out + COPIED[k][1], obs + COPIED[k][0], COPIED[k][2] * sizeof(float));

    uint32_t talon = (1u << d->talon[0]) | (1u << d->talon[1]);
    uint32_t dealt = d->hands[seat] | d->played[seat] | (seat == d->declarer ? d->discard : 0);
    cards(out + AT_DEALT, dealt & ~talon);

    for (int k = 0; k < log->ncalls; k++) {
        float *call = out + AT_AUCTION + CALL_WIDTH * k;
        call[REL(log->call_seat[k])] = 1.0f;
        call[3 + log->call_id[k] - PC_FIRST_BID] = 1.0f; /* bids, misere, pass: 32..58 */
    }
    for (int k = 0; k < d->ndef && k < MAX_DEFENCE; k++) {
        float *call = out + AT_DEFENCE + DEF_WIDTH * k;
        call[REL(d->def_seat[k])] = 1.0f;
        call[3 + d->def_call[k]] = 1.0f;
    }
    for (int k = 0; k < log->nplays; k++) {
        float *trick = out + AT_TRICKS + TRICK_WIDTH * (k / 3);
        if (k % 3 == 0) {
            trick[REL(log->play_seat[k])] = 1.0f;
            if (log->trick_talon[k / 3] >= 0)
                trick[3 + 96 + log->trick_talon[k / 3]] = 1.0f;
        }
        trick[3 + 32 * REL(log->play_seat[k]) + log->play_card[k]] = 1.0f;
    }
    if (d->phase == PC_PH_PLAY && d->trick_n == 0 && d->talon_card >= 0 && d->ntricks < 10)
        out[AT_TRICKS + TRICK_WIDTH * d->ntricks + 3 + 96 + d->talon_card] = 1.0f;
#undef REL
}
