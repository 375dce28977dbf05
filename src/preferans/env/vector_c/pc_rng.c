/* The seeded generator (splitmix64) and the shuffle of a deal.  preferans.env.vector_deals
 * does the same in Python, so both backends deal the same cards from the same seed. */
#include "pc.h"

uint64_t pc_next(uint64_t *state)
{
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

uint64_t pc_seed(uint64_t seed, uint64_t index)
{
    uint64_t s = seed * 0xD1B54A32D192ED03ULL + index;
    return pc_next(&s);
}

/* The dealer (0..2), then a Fisher-Yates shuffle of the 32 cards. */
void pc_shuffle(uint64_t *rng, uint8_t cards[32], uint8_t *dealer)
{
    *dealer = (uint8_t)(pc_next(rng) % 3);
    for (int i = 0; i < 32; i++)
        cards[i] = (uint8_t)i;
    for (int i = 31; i > 0; i--) {
        int j = (int)(pc_next(rng) % (uint64_t)(i + 1));
        uint8_t t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
}
