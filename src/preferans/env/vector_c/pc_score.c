/* What a finished deal was, as one integer: the key of the score table.
 *
 * The deal's score in whists per seat is not computed here: the Python engine's sheet scores
 * each key once (preferans.env.vector_score decodes the key into a DealOutcome, records it on
 * a fresh Sheet and keeps its balance), so every convention of the scoring is the engine's
 * own.  The key holds all that scoring reads of a three-player deal on a fresh sheet, with the
 * seats turned so that the dealer is seat 0 (a deal's score turns with its seats): the
 * declarer, the contract's level, what the defence did (the code below), the tricks of the
 * dealer and of first hand, the talon's quick tricks (talon prizes) and a refused talon.
 *
 * codes: 0 all-pass, 1 misere, 2 resigned, 3 whist-whist, 4/5 whist-pass open/closed,
 * 6/7 pass-whist open/closed, 8 pass-pass, 9 pass-half standing, 10/11 pass-half-whist
 * open/closed, 12 pass-half-pass, 13 whist-pass-half, 14 forced whist-whist, 15 a checked ten.
 */
#include "pc.h"

#define NCODES 16

static int quick_tricks(const pc_deal *d)
{
    int a = d->talon[0], b = d->talon[1];
    int ra = a & 7, rb = b & 7, same = (a >> 3) == (b >> 3);
    int aces = (ra == 7) + (rb == 7);
    if (aces == 2)
        return 3;
    if (same && ((ra == 7 && rb == 6) || (ra == 6 && rb == 7)))
        return 2;
    if (aces || (same && ((ra == 6 && rb == 5) || (ra == 5 && rb == 6))))
        return 1;
    return 0;
}

static int defence_code(const pc_deal *d)
{
    if (d->kind == PC_K_ALLPASS)
        return 0;
    if (d->kind == PC_K_MISERE)
        return 1;
    if (d->kind == PC_K_RESIGNED)
        return 2;
    if (d->kind == PC_K_PASSED)
        return 8;
    if (d->kind == PC_K_HALFWHIST) {
        if (d->def_call[0] == PC_D_WHIST)
            return 13;
        return d->ndef == 2 ? 9 : 12;
    }
    /* a played contract */
    if (d->ndef == 0)
        return 15;
    if (d->nwhisters == 2)
        return d->forced ? 14 : 3;
    int closed = d->open_defence == 0;
    if (d->ndef == 3)
        return 10 + closed;
    return (d->def_call[0] == PC_D_WHIST ? 4 : 6) + closed;
}

int64_t pc_score_keys(const pc_rules *r)
{
    return (int64_t)3 * 5 * NCODES * 11 * 11 * r->score_q * r->score_r;
}

int64_t pc_score_key(const pc_rules *r, const pc_deal *d)
{
    int code = defence_code(d);
    int declarer = d->declarer >= 0 ? (d->declarer - d->dealer + 3) % 3 : 0;
    int level = d->contract >= 0 && d->contract != PC_MISERE_BID ? d->contract / 5 : 0;
    int played = d->kind == PC_K_ALLPASS || d->kind == PC_K_MISERE || d->kind == PC_K_CONTRACT;
    int t0 = played ? d->tricks_won[d->dealer] : 0;
    int t1 = played ? d->tricks_won[(d->dealer + 1) % 3] : 0;
    int q = r->score_q > 1 && d->declarer >= 0 ? quick_tricks(d) : 0;
    int refused = r->score_r > 1 ? d->talon_refused : 0;
    int64_t key = declarer;
    key = key * 5 + level;
    key = key * NCODES + code;
    key = key * 11 + t0;
    key = key * 11 + t1;
    key = key * r->score_q + q;
    key = key * r->score_r + refused;
    return key;
}
