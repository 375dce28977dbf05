"""Engine speed: random legal deals played to the end, copies, observations. Prints figures."""

from __future__ import annotations

import random
import time

from preferans.deal import Deal
from preferans.rules import Rules


def main(deals: int = 2000) -> None:
    rules = Rules.preset("sochi")
    rng = random.Random(1)
    actions = copies = 0
    start = time.perf_counter()
    for i in range(deals):
        d = Deal.shuffle(rules, i % 3, rng)
        while not d.done:
            legal = d.legal_actions()
            d.copy()
            copies += 1
            d.apply(rng.choice(legal))
            actions += 1
    spent = time.perf_counter() - start
    print(f"{deals} random deals: {deals / spent:,.0f} deals/s, "
          f"{actions / spent:,.0f} (legal_actions + copy + apply)/s")
    d = Deal.shuffle(rules, 0, rng)
    start = time.perf_counter()
    for _ in range(5000):
        d.observation(0)
    print(f"observation(): {5000 / (time.perf_counter() - start):,.0f}/s")


if __name__ == "__main__":
    main()
