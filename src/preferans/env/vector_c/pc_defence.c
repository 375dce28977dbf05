/* After the auction (deal.py, deal_legal.py, deal_defence.py): the talon taken, the discard
 * in two single-card steps (the environment's), the contract named, the defenders' calls,
 * the lone whister's open or closed defence, the hands put face up. */
#include "pc.h"

#define BIT(id) (1ULL << (id))

static void finish(pc_deal *d, int kind)
{
    d->kind = (uint8_t)kind;
    d->phase = PC_PH_DONE;
}

void pc_after_auction(const pc_rules *r, pc_deal *d)
{
    (void)r;
    d->declarer = d->high_seat;
    d->bid = d->high;
    d->hands[d->declarer] |= (1u << d->talon[0]) | (1u << d->talon[1]);
    d->phase = PC_PH_DISCARD;
}

static int may_resign(const pc_rules *r, const pc_deal *d)
{
    return r->resignation && d->bid != PC_MISERE_BID;
}

static int half_level(const pc_rules *r, const pc_deal *d)
{
    return d->contract >= 0 && d->contract != PC_MISERE_BID &&
           (r->half_levels >> (d->contract / 5) & 1);
}

static void expose(pc_deal *d, int bits, int at_once)
{
    if (at_once || d->declarer != d->first)
        d->exposed |= (uint8_t)bits;
    else
        d->pending_expose |= (uint8_t)bits;
}

static void name_contract(const pc_rules *r, pc_deal *d, int c)
{
    d->contract = (int8_t)c;
    d->trump = (int8_t)(c == PC_MISERE_BID || c % 5 == 4 ? -1 : c % 5);
    d->defenders[0] = (uint8_t)((d->declarer + 1) % 3);
    d->defenders[1] = (uint8_t)((d->declarer + 2) % 3);
    int bits = (1 << d->defenders[0]) | (1 << d->defenders[1]);
    if (c == PC_MISERE_BID) {
        d->kind = PC_K_MISERE;
        if (r->misere_exposure == 0)
            d->pending_expose |= (uint8_t)bits;
        else
            expose(d, bits, r->misere_exposure == 2);
        pc_start_play(r, d);
    } else if (c / 5 == 4 && !r->tens_whisted) {
        d->kind = PC_K_CONTRACT;
        d->exposed |= 7;
        pc_start_play(r, d);
    } else {
        d->kind = PC_K_CONTRACT;
        d->forced = (uint8_t)((r->stalingrad && c == 0) || (r->stalingrad_sixes && c < 5));
        d->phase = PC_PH_DEFENCE;
        d->def_to_act = d->defenders[0];
    }
}

void pc_defence_legal(const pc_rules *r, const pc_deal *d, uint64_t mask[2])
{
    uint64_t m = 0, hi = 0;
    switch (d->phase) {
    case PC_PH_DISCARD: {
        uint32_t hand = d->hands[d->declarer];
        if (d->pending < 0) {
            uint32_t top = 1u << (31 - __builtin_clz(hand));
            m = hand & ~top;
            if (r->talon_refusal)
                hi |= 1; /* REFUSE: id 64 */
            if (may_resign(r, d))
                m |= BIT(PC_RESIGN);
        } else {
            m = hand & ~((2u << d->pending) - 1u);
        }
        break;
    }
    case PC_PH_CONTRACT:
        if (d->bid == PC_MISERE_BID) {
            m = BIT(PC_MISERE);
        } else {
            for (int s = d->bid; s < 25; s++)
                m |= BIT(PC_FIRST_BID + s);
            if (may_resign(r, d))
                m |= BIT(PC_RESIGN);
        }
        break;
    case PC_PH_DEFENCE:
        if (d->forced)
            m = BIT(PC_WHIST);
        else if (d->ndef == 1 && d->def_call[0] == PC_D_PASS && half_level(r, d))
            m = BIT(PC_WHIST) | BIT(PC_PASS) | BIT(PC_HALF);
        else
            m = BIT(PC_WHIST) | BIT(PC_PASS);
        break;
    case PC_PH_MODE:
        m = r->lone_closed_only ? BIT(PC_CLOSED) : BIT(PC_OPEN) | BIT(PC_CLOSED);
        if (r->whist_pass_half && d->ndef == 2 && d->def_call[0] == PC_D_WHIST &&
            d->def_call[1] == PC_D_PASS && half_level(r, d))
            m |= BIT(PC_HALF);
        break;
    default:
        break;
    }
    mask[0] = m;
    mask[1] = hi;
}

static void call(pc_deal *d, int seat, int what)
{
    d->def_seat[d->ndef] = (uint8_t)seat;
    d->def_call[d->ndef] = (uint8_t)what;
    d->ndef++;
}

static void apply_defence(const pc_rules *r, pc_deal *d, int id)
{
    int seat = d->def_to_act;
    int first = d->defenders[0], second = d->defenders[1];
    call(d, seat, id == PC_WHIST ? PC_D_WHIST : id == PC_PASS ? PC_D_PASS : PC_D_HALF);
    if (d->ndef == 1) {
        d->def_to_act = (uint8_t)second;
        return;
    }
    if (d->ndef == 2) {
        int a = d->def_call[0], b = d->def_call[1];
        if (a == PC_D_WHIST && b == PC_D_WHIST) {
            d->nwhisters = 2;
            d->whister = (uint8_t)first;
            pc_start_play(r, d);
        } else if (a == PC_D_PASS && b == PC_D_PASS) {
            finish(d, PC_K_PASSED);
        } else if (a == PC_D_PASS && b == PC_D_HALF) {
            d->half_whister = (int8_t)second;
            if (r->half_whist_reopen)
                d->def_to_act = (uint8_t)first;
            else
                finish(d, PC_K_HALFWHIST);
        } else {
            d->nwhisters = 1;
            d->whister = (uint8_t)(a == PC_D_WHIST ? first : second);
            d->phase = PC_PH_MODE;
        }
        return;
    }
    if (id == PC_WHIST) { /* the first defender reopens a half-whist */
        d->nwhisters = 1;
        d->whister = (uint8_t)first;
        d->phase = PC_PH_MODE;
    } else {
        finish(d, PC_K_HALFWHIST);
    }
}

static void apply_mode(const pc_rules *r, pc_deal *d, int id)
{
    int whister = d->whister;
    int passer = d->defenders[0] == whister ? d->defenders[1] : d->defenders[0];
    if (id == PC_HALF) {
        call(d, whister, PC_D_HALF);
        d->half_whister = (int8_t)whister;
        d->nwhisters = 0;
        finish(d, PC_K_HALFWHIST);
        return;
    }
    if (id == PC_OPEN) {
        d->open_defence = 1;
        d->controller[passer] = (uint8_t)whister;
        expose(d, (1 << passer) | (1 << whister), r->open_before_lead);
    } else {
        d->open_defence = 0;
    }
    pc_start_play(r, d);
}

/* Apply an id of the phases after the auction (legality checked by the caller). */
int pc_defence_apply(const pc_rules *r, pc_deal *d, int id)
{
    switch (d->phase) {
    case PC_PH_DISCARD:
        if (id < 32 && d->pending < 0) {
            d->pending = (int8_t)id;
        } else if (id < 32) {
            d->discard = (1u << d->pending) | (1u << id);
            d->hands[d->declarer] &= ~d->discard;
            d->pending = -1;
            d->phase = PC_PH_CONTRACT;
        } else if (id == PC_REFUSE) {
            d->talon_refused = 1;
            d->hands[d->declarer] &= ~((1u << d->talon[0]) | (1u << d->talon[1]));
            d->phase = PC_PH_CONTRACT;
        } else { /* RESIGN */
            d->contract = d->bid;
            finish(d, PC_K_RESIGNED);
        }
        return 0;
    case PC_PH_CONTRACT:
        if (id == PC_RESIGN) {
            d->contract = d->bid;
            finish(d, PC_K_RESIGNED);
        } else {
            name_contract(r, d, id == PC_MISERE ? PC_MISERE_BID : id - PC_FIRST_BID);
        }
        return 0;
    case PC_PH_DEFENCE:
        apply_defence(r, d, id);
        return 0;
    case PC_PH_MODE:
        apply_mode(r, d, id);
        return 0;
    default:
        return -1;
    }
}
