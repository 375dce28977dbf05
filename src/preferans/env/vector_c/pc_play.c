/* The tricks (deal_play.py, tricks.py): follow suit, else trump, else any card; the highest
 * trump wins, else the highest card of the suit led.  In an all-pass whose talon leads, the
 * talon cards set the suit of the first two tricks without competing, and first hand leads
 * the first three. */
#include "pc.h"

#define SUIT(card) ((card) >> 3)
#define SUIT_MASK(suit) (0xFFu << (8 * (suit)))

static void start_trick(const pc_rules *r, pc_deal *d, int leader)
{
    int number = d->ntricks;
    d->trick_n = 0;
    d->talon_card = -1;
    if (d->kind == PC_K_ALLPASS && r->allpass_talon_lead && number < 2) {
        d->talon_card = (int8_t)d->talon[number];
        d->talon_turned = (uint8_t)(number + 1);
        leader = d->first;
    } else if (d->kind == PC_K_ALLPASS && r->allpass_talon_lead && number == 2) {
        leader = d->first;
    }
    d->hand_to_play = (uint8_t)leader;
}

void pc_start_play(const pc_rules *r, pc_deal *d)
{
    d->phase = PC_PH_PLAY;
    start_trick(r, d, d->first);
}

static int led_suit(const pc_deal *d)
{
    if (d->talon_card >= 0)
        return SUIT(d->talon_card);
    if (d->trick_n)
        return SUIT(d->trick_card[0]);
    return -1;
}

uint32_t pc_playable(const pc_deal *d)
{
    uint32_t hand = d->hands[d->hand_to_play];
    int led = led_suit(d);
    if (led < 0)
        return hand;
    uint32_t follow = hand & SUIT_MASK(led);
    if (follow)
        return follow;
    if (d->trump >= 0) {
        uint32_t ruff = hand & SUIT_MASK(d->trump);
        if (ruff)
            return ruff;
    }
    return hand;
}

static int best_of(const pc_deal *d, int suit)
{
    int best = -1, seat = -1;
    for (int k = 0; k < d->trick_n; k++)
        if (SUIT(d->trick_card[k]) == suit && d->trick_card[k] > best) {
            best = d->trick_card[k];
            seat = d->trick_seat[k];
        }
    return seat;
}

static int trick_winner(const pc_deal *d)
{
    if (d->trump >= 0) {
        int seat = best_of(d, d->trump);
        if (seat >= 0)
            return seat;
    }
    int suit = d->talon_card >= 0 ? SUIT(d->talon_card) : SUIT(d->trick_card[0]);
    int seat = best_of(d, suit);
    return seat >= 0 ? seat : best_of(d, SUIT(d->trick_card[0]));
}

/* Play a card of the hand to play (legality checked by the caller). */
int pc_play_apply(const pc_rules *r, pc_deal *d, int card)
{
    int seat = d->hand_to_play;
    d->hands[seat] &= ~(1u << card);
    d->played[seat] |= 1u << card;
    d->trick_seat[d->trick_n] = (uint8_t)seat;
    d->trick_card[d->trick_n] = (uint8_t)card;
    d->trick_n++;
    if (d->pending_expose && d->ntricks == 0 && d->trick_n == 1) {
        d->exposed |= d->pending_expose;
        d->pending_expose = 0;
    }
    if (d->trick_n < 3) {
        d->hand_to_play = (uint8_t)((seat + 1) % 3);
        return 0;
    }
    int winner = trick_winner(d);
    d->tricks_won[winner]++;
    d->ntricks++;
    if (d->ntricks == 10) {
        d->trick_n = 0;
        d->talon_card = -1;
        d->phase = PC_PH_DONE;
        return 0;
    }
    start_trick(r, d, winner);
    return 0;
}
