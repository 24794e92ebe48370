"""Train a masked PPO agent (sb3-contrib's MaskablePPO) to play Shut the Box under the default rules,
alone, paid minus its score, then save it as a Stable-Baselines3 zip and as ONNX (docs/rl.md):

    pip install -e ".[rl,rl-train]"
    python examples/rl/train_masked_ppo.py --steps 200000 --out ppo

writes ppo.zip and ppo.onnx, each a strategy spec: `shutbox analyze ppo.onnx`. examples/rl/ppo.onnx
is what this made with these settings (seed 1, 200,000 decisions).
"""

from __future__ import annotations

import argparse
import time
import warnings
from pathlib import Path

import gymnasium as gym
import torch
from sb3_contrib import MaskablePPO

import tournaments.rl  # noqa: F401  # registers shutbox/ShutTheBox-v0


class Logits(torch.nn.Module):
    """The trained policy's scores for every action, from an observation: what the ONNX file holds
    (shutbox plays the legal action scored highest, as MaskablePPO's own predict does)."""

    def __init__(self, agent: MaskablePPO) -> None:
        super().__init__()
        self.policy = agent.policy

    def forward(self, observation: torch.Tensor) -> torch.Tensor:
        features = self.policy.extract_features(observation, self.policy.pi_features_extractor)
        latent = self.policy.mlp_extractor.forward_actor(features)
        return self.policy.action_net(latent)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--steps", type=int, default=200_000, help="decisions to train on")
    parser.add_argument("--seed", type=int, default=1, help="the agent's seed and the dice's")
    parser.add_argument("--out", type=Path, default=Path("ppo"), help="where to save: OUT.zip and OUT.onnx")
    arguments = parser.parse_args()
    torch.set_num_threads(1)
    env = gym.make("shutbox/ShutTheBox-v0")
    agent = MaskablePPO("MlpPolicy", env, seed=arguments.seed, verbose=0)
    started = time.perf_counter()
    agent.learn(total_timesteps=arguments.steps)
    print(f"trained on {arguments.steps} decisions in {time.perf_counter() - started:.0f} s")
    agent.save(arguments.out.with_suffix(".zip"))
    size = env.observation_space.shape[0]
    with warnings.catch_warnings():  # the TorchScript exporter, deprecated, needs no onnxscript
        warnings.simplefilter("ignore", DeprecationWarning)
        torch.onnx.export(
            Logits(agent).eval(),
            (torch.zeros(1, size),),
            str(arguments.out.with_suffix(".onnx")),
            input_names=["observation"],
            output_names=["logits"],
            dynamo=False,
        )
    print(f"saved {arguments.out.with_suffix('.zip')} and {arguments.out.with_suffix('.onnx')}")


if __name__ == "__main__":
    main()
