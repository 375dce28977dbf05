/* The auction (auction.py, without blind and hand bids): who may call what, a call applied.
 * Ladder keys are doubled so that misere sits between two steps as an integer. */
#include "pc.h"

static int order_of(const pc_deal *d, int seat) { return (seat - d->first + 3) % 3; }

static int misere_key2(const pc_rules *r) { return 2 * (r->misere_outbid_by - 6) * 5 - 1; }

void pc_auction_legal(const pc_rules *r, const pc_deal *d, uint64_t mask[2])
{
    int seat = d->to_bid;
    uint64_t m = 1ULL << PC_PASS;
    if (seat != d->misere_seat) {
        int base = (r->min_level - 6) * 5;
        int holds = r->seniority && d->high >= 0 && d->high != PC_MISERE_BID &&
                    order_of(d, seat) < order_of(d, d->high_seat);
        int low;
        if (d->high < 0)
            low = base;
        else if (d->high == PC_MISERE_BID)
            low = (r->misere_outbid_by - 6) * 5 > base ? (r->misere_outbid_by - 6) * 5 : base;
        else {
            low = d->high + (holds ? 0 : 1);
            if (low < base)
                low = base;
        }
        int top = r->jump_bids ? 25 : low + (holds ? 2 : 1);
        if (top > 25)
            top = 25;
        for (int s = low; s < top; s++)
            m |= 1ULL << (PC_FIRST_BID + s);
    }
    if (!(d->bid_made >> seat & 1) && seat != d->misere_seat && !(d->called >> seat & 1) &&
        d->high_key2 < misere_key2(r))
        m |= 1ULL << PC_MISERE;
    mask[0] = m;
    mask[1] = 0;
}

/* Apply a call (legality checked by the caller); 1 when the auction is over. */
int pc_auction_apply(const pc_rules *r, pc_deal *d, int id)
{
    int seat = d->to_bid;
    d->called |= (uint8_t)(1u << seat);
    if (id == PC_PASS) {
        d->passed |= (uint8_t)(1u << seat);
    } else {
        int bid = id == PC_MISERE ? PC_MISERE_BID : id - PC_FIRST_BID;
        if (bid == PC_MISERE_BID) {
            d->misere_seat = (int8_t)seat;
            d->high_key2 = (int8_t)misere_key2(r);
        } else {
            d->bid_made |= (uint8_t)(1u << seat);
            d->high_key2 = (int8_t)(2 * bid);
        }
        d->high = (int8_t)bid;
        d->high_seat = (int8_t)seat;
    }
    int active = 0, last = -1;
    for (int s = 0; s < 3; s++)
        if (!(d->passed >> s & 1)) {
            active++;
            last = s;
        }
    if (active == 0 || (active == 1 && d->high_seat == last))
        return 1;
    for (int k = 1; k <= 3; k++) {
        int next = (seat + k) % 3;
        if (!(d->passed >> next & 1)) {
            d->to_bid = (uint8_t)next;
            return 0;
        }
    }
    return 1;
}
