/* One deal's steps: a deal started from shuffled cards, the seat to act, its legal mask over
 * the action ids, one id applied. */
#include <string.h>

#include "pc.h"

void pc_start(const pc_rules *r, pc_deal *d, const uint8_t cards[32], int dealer)
{
    (void)r;
    memset(d, 0, sizeof *d);
    d->dealer = (uint8_t)dealer;
    d->first = (uint8_t)((dealer + 1) % 3);
    for (int k = 0; k < 3; k++) { /* ten cards each from the dealer's left (core.dealing_seats) */
        int seat = (dealer + 1 + k) % 3;
        for (int c = 0; c < 10; c++)
            d->hands[seat] |= 1u << cards[10 * k + c];
        d->controller[k] = (uint8_t)k;
    }
    d->talon[0] = cards[30];
    d->talon[1] = cards[31];
    d->phase = PC_PH_AUCTION;
    d->to_bid = d->first;
    d->high = d->high_seat = d->misere_seat = -1;
    d->high_key2 = -2;
    d->declarer = d->bid = d->contract = d->trump = d->pending = -1;
    d->half_whister = d->open_defence = d->talon_card = -1;
}

int pc_to_act(const pc_deal *d)
{
    switch (d->phase) {
    case PC_PH_AUCTION:
        return d->to_bid;
    case PC_PH_DISCARD:
    case PC_PH_CONTRACT:
        return d->declarer;
    case PC_PH_DEFENCE:
        return d->def_to_act;
    case PC_PH_MODE:
        return d->whister;
    case PC_PH_PLAY:
        return d->controller[d->hand_to_play];
    default:
        return -1;
    }
}

void pc_legal(const pc_rules *r, const pc_deal *d, uint64_t mask[2])
{
    if (d->phase == PC_PH_AUCTION) {
        pc_auction_legal(r, d, mask);
    } else if (d->phase == PC_PH_PLAY) {
        mask[0] = pc_playable(d);
        mask[1] = 0;
    } else {
        pc_defence_legal(r, d, mask);
    }
}

/* Apply an action id of the seat to act: 0, or -1 when it is not legal now. */
int pc_apply(const pc_rules *r, pc_deal *d, int id)
{
    uint64_t mask[2];
    if (id < 0 || id >= PC_NUM_ACTIONS || d->phase == PC_PH_DONE)
        return -1;
    pc_legal(r, d, mask);
    if (!(mask[id >> 6] >> (id & 63) & 1))
        return -1;
    if (d->phase == PC_PH_AUCTION) {
        if (pc_auction_apply(r, d, id)) {
            if (d->high < 0) {
                d->kind = PC_K_ALLPASS;
                pc_start_play(r, d);
            } else {
                pc_after_auction(r, d);
            }
        }
        return 0;
    }
    if (d->phase == PC_PH_PLAY)
        return pc_play_apply(r, d, id);
    return pc_defence_apply(r, d, id);
}
