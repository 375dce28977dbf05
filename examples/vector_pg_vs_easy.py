"""A small learning agent against two Easy players on the vector environment: a linear softmax
policy over the observation tensor, trained by policy gradient (REINFORCE with a running
baseline), in numpy only.

    python examples/vector_pg_vs_easy.py [--deals 3000] [--envs 32] [--seed 1] [--rules sochi]
                                         [--plot docs/images/vector_pg_vs_easy.png]

The agent plays seat 0 of every deal (first hand, second hand or dealer as the dealer turns);
Easy (:class:`preferans.env.bots.LevelAgent`) plays seats 1 and 2, reading only their own
seats' views.  Easy needs the engine's observation, so the environment runs on its Python
backend (``VectorEnv(..., backend="python")``, the same API as the C core).  Every deal's score
(whists, seat 0) is a return; the policy learns from each finished deal.  Prints the mean
score per window of deals, and with ``--plot`` draws the learning curve (matplotlib).
"""

from __future__ import annotations

import argparse
import time

import numpy as np

from preferans.env.bots import LevelAgent
from preferans.env.vector import VectorEnv

SCALE = 100.0
"""Scores are divided by this for the gradient (a deal's score is often in the hundreds)."""


class LinearPolicy:
    """Logits ``x @ W + b`` over the 118 ids, masked to the legal ones."""

    def __init__(self, size: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((size, actions))
        self.b = np.zeros(actions)
        self.rng = rng

    def probabilities(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        logits = np.where(mask, obs @ self.w + self.b, -np.inf)
        logits -= logits.max(axis=1, keepdims=True)
        p = np.exp(logits)
        return p / p.sum(axis=1, keepdims=True)

    def sample(self, obs: np.ndarray, mask: np.ndarray) -> np.ndarray:
        p = self.probabilities(obs, mask)
        u = self.rng.random((len(p), 1))
        return np.minimum((p.cumsum(axis=1) < u).sum(axis=1), p.shape[1] - 1)

    def update(self, obs: np.ndarray, mask: np.ndarray, actions: np.ndarray,
               advantages: np.ndarray, lr: float) -> None:
        """One policy-gradient step: each decision's log-probability times its advantage."""
        p = self.probabilities(obs, mask)
        grad = -p
        grad[np.arange(len(actions)), actions] += 1.0
        grad *= advantages[:, None]
        self.w += lr * obs.T @ grad / len(actions)
        self.b += lr * grad.mean(axis=0)


def train(deals: int, envs: int, seed: int, rules: str, window: int, lr: float
          ) -> list[tuple[int, float]]:
    """Play ``deals`` deals, learning as they end; the mean score of each ``window`` deals."""
    env = VectorEnv(envs, rules, seed=seed, backend="python")
    obs, mask = env.reset()
    rng = np.random.default_rng(seed)
    policy = LinearPolicy(obs.shape[1], mask.shape[1], rng)
    easy = [[LevelAgent("easy", env.rules, seed=seed * 1000 + 10 * i + s) for s in range(3)]
            for i in range(envs)]
    trails: list[list[tuple[np.ndarray, np.ndarray, int]]] = [[] for _ in range(envs)]
    batch: list[tuple[np.ndarray, np.ndarray, int, float]] = []
    baseline, scores, curve = 0.0, [], []
    while len(scores) < deals:
        player = env.player
        actions = np.zeros(envs, np.int64)
        mine = np.flatnonzero(player == 0)
        if len(mine):
            actions[mine] = policy.sample(obs[mine], mask[mine])
        for i in np.flatnonzero(player != 0):
            legal = np.flatnonzero(mask[i]).tolist()
            actions[i] = easy[i][player[i]].act(env.view(int(i), int(player[i])), legal)
        for i in mine:
            trails[i].append((obs[i], mask[i], int(actions[i])))
        obs, mask, rewards, done, _info = env.step(actions)
        for i in np.flatnonzero(done):
            score = float(rewards[i, 0])
            scores.append(score)
            batch += [(o, m, a, score / SCALE) for o, m, a in trails[i]]
            trails[i] = []
            for agent in easy[i]:
                agent.reset()
            if len(scores) % window == 0:
                curve.append((len(scores), float(np.mean(scores[-window:]))))
                print(f"deals {len(scores):6d}  mean score of the last {window}: "
                      f"{curve[-1][1]:+8.1f} whists", flush=True)
        if len(batch) >= 256:
            o, m, a, g = (np.array(x) for x in zip(*batch, strict=True))
            policy.update(o, m, a, g - baseline, lr)
            baseline = 0.9 * baseline + 0.1 * float(g.mean())
            batch = []
    return curve


def plot(curve: list[tuple[int, float]], path: str, rules: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x, y = zip(*curve, strict=True)
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(x, y, marker="o")
    ax.axhline(0, color="grey", linewidth=0.8)
    ax.set_xlabel("deals played")
    ax.set_ylabel("mean score per deal, whists (window)")
    ax.set_title(f"Linear policy gradient against two Easy players ({rules})")
    fig.tight_layout()
    fig.savefig(path, dpi=100)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=3000)
    parser.add_argument("--envs", type=int, default=32)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--rules", default="sochi")
    parser.add_argument("--window", type=int, default=200)
    parser.add_argument("--lr", type=float, default=0.5)
    parser.add_argument("--plot", default=None, help="write the learning curve to this PNG")
    args = parser.parse_args()
    start = time.perf_counter()
    curve = train(args.deals, args.envs, args.seed, args.rules, args.window, args.lr)
    print(f"{args.deals} deals in {time.perf_counter() - start:.0f} s")
    if args.plot and curve:
        plot(curve, args.plot, args.rules)
        print(f"learning curve: {args.plot}")


if __name__ == "__main__":
    main()
