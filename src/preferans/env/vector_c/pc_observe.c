/* The observation tensor of a seat (tensors.OBSERVATION_PIECES, one deal, no sheet): the
 * table as that seat sees it now.  Offsets are those of docs/research.md. */
#include <string.h>

#include "pc.h"

enum {
    AT_SEAT = 0,
    AT_DEALER = 3,
    AT_PHASE = 6,
    AT_TO_ACT = 20,
    AT_HAND = 23,
    AT_PENDING = 55,
    AT_OWN_DISCARD = 87,
    AT_TALON = 119,
    AT_EXPOSED = 151,
    AT_PLAYED = 247,
    AT_TRICK = 343,
    AT_TALON_LEAD = 439,
    AT_HAND_SIZES = 471,
    AT_TRICKS_WON = 474,
    AT_HIGH_BID = 477,
    AT_HIGH_BIDDER = 503,
    AT_PASSED = 506,
    AT_MIN_BID = 509,
    AT_DECLARER = 514,
    AT_CONTRACT = 517,
    AT_KIND = 543,
    AT_DEFENCE = 549,
    AT_FLAGS = 567
};

static void cards(float *out, uint32_t mask)
{
    while (mask) {
        out[__builtin_ctz(mask)] = 1.0f;
        mask &= mask - 1;
    }
}

void pc_observe(const pc_deal *d, int seat, int min_level, float *out)
{
#define REL(x) (((x) - seat + 3) % 3)
    memset(out, 0, PC_OBS_SIZE * sizeof(float));
    out[AT_SEAT + seat] = 1.0f;
    out[AT_DEALER + REL(d->dealer)] = 1.0f;
    out[AT_PHASE + d->phase] = 1.0f;
    if (d->phase != PC_PH_DONE)
        out[AT_TO_ACT + REL(pc_to_act(d))] = 1.0f;
    cards(out + AT_HAND, d->hands[seat]);
    if (d->pending >= 0 && pc_to_act(d) == seat && d->phase != PC_PH_DONE)
        out[AT_PENDING + d->pending] = 1.0f;
    if (seat == d->declarer)
        cards(out + AT_OWN_DISCARD, d->discard);
    if (d->declarer >= 0) {
        out[AT_TALON + d->talon[0]] = 1.0f;
        out[AT_TALON + d->talon[1]] = 1.0f;
    } else {
        for (int k = 0; k < d->talon_turned; k++)
            out[AT_TALON + d->talon[k]] = 1.0f;
    }
    for (int s = 0; s < 3; s++) {
        if (d->exposed >> s & 1)
            cards(out + AT_EXPOSED + 32 * REL(s), d->hands[s]);
        cards(out + AT_PLAYED + 32 * REL(s), d->played[s]);
    }
    for (int k = 0; k < d->trick_n; k++)
        out[AT_TRICK + 32 * REL(d->trick_seat[k]) + d->trick_card[k]] = 1.0f;
    if (d->talon_card >= 0)
        out[AT_TALON_LEAD + d->talon_card] = 1.0f;
    if (d->high >= 0) {
        out[AT_HIGH_BID + d->high] = 1.0f;
        out[AT_HIGH_BIDDER + REL(d->high_seat)] = 1.0f;
    }
    for (int s = 0; s < 3; s++)
        if (d->passed >> s & 1)
            out[AT_PASSED + REL(s)] = 1.0f;
    if (min_level >= 6 && min_level <= 10)
        out[AT_MIN_BID + min_level - 6] = 1.0f;
    if (d->declarer >= 0)
        out[AT_DECLARER + REL(d->declarer)] = 1.0f;
    if (d->contract >= 0)
        out[AT_CONTRACT + d->contract] = 1.0f;
    if (d->kind != PC_K_NONE)
        out[AT_KIND + d->kind - 1] = 1.0f;
    for (int k = 0; k < d->ndef; k++)
        out[AT_DEFENCE + 6 * REL(d->def_seat[k]) + d->def_call[k]] = 1.0f;
    if (d->open_defence == 1)
        out[AT_FLAGS] = 1.0f;
    else if (d->open_defence == 0)
        out[AT_FLAGS + 1] = 1.0f;
    if (d->talon_refused)
        out[AT_FLAGS + 2] = 1.0f;
    for (int s = 0; s < 3; s++) {
        out[AT_HAND_SIZES + REL(s)] = (float)((double)pc_popcount(d->hands[s]) / 12.0);
        out[AT_TRICKS_WON + REL(s)] = (float)((double)d->tricks_won[s] / 10.0);
    }
#undef REL
}
