"""Train the index finder (vision.index_finder) and write it as ONNX (vision/models/index_finder.onnx).

    python -m vision.train_index_finder [--scenes 2400] [--epochs 30] [--seed 0] [--out PATH]

The data is table scenes drawn in code (vision.index_finder.scene); no photo is used. Each
step takes random crops of the scenes, each shrunk by a random factor (cards 35–240 px tall,
as in the finder's 448 px copy of a photo). The served app never imports this module.
"""

from __future__ import annotations

import argparse
import multiprocessing
import time
from pathlib import Path

import cv2
import numpy as np

from . import index_finder, index_synth
from .index_finder import MODEL_PATH, STRIDE

CROP = 128  # px, square crops of the shrunk scenes


def _generate(seed: int) -> tuple[np.ndarray, np.ndarray]:
    return index_finder.scene(np.random.default_rng(seed))


def scenes(count: int, seed: int, workers: int) -> list[tuple[np.ndarray, np.ndarray]]:
    index_synth.glyph_bank()  # rendered once here; forked workers share it
    seeds = [seed * 1_000_003 + i for i in range(count)]
    if workers <= 1:
        return [_generate(s) for s in seeds]
    with multiprocessing.Pool(workers) as pool:
        return pool.map(_generate, seeds, chunksize=16)


def crop(photo: np.ndarray, marks: np.ndarray, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A random crop of a randomly shrunk scene: (input (3, CROP, CROP), heat, regression)."""
    f = rng.uniform(0.35, 1.0)
    h, w = photo.shape[:2]
    small = cv2.resize(photo, (max(CROP, int(w * f)), max(CROP, int(h * f))), interpolation=cv2.INTER_AREA)
    fx, fy = small.shape[1] / w, small.shape[0] / h
    m = marks.copy()
    m[:, 0] *= fx
    m[:, 1] *= fy
    m[:, 4] *= (fx + fy) / 2
    if len(m) and rng.random() < 0.6:  # most crops hold an index
        x, y = m[int(rng.integers(len(m))), :2]
        x0 = int(np.clip(x - rng.uniform(8, CROP - 8), 0, small.shape[1] - CROP))
        y0 = int(np.clip(y - rng.uniform(8, CROP - 8), 0, small.shape[0] - CROP))
    else:
        x0 = int(rng.integers(small.shape[1] - CROP + 1))
        y0 = int(rng.integers(small.shape[0] - CROP + 1))
    patch = small[y0:y0 + CROP, x0:x0 + CROP]
    m[:, 0] -= x0
    m[:, 1] -= y0
    heat, reg = index_finder.targets(m, (CROP, CROP))
    return index_finder.normalise(patch)[0], heat, reg


def build_model():
    import torch.nn as nn

    def conv(cin, cout, stride=1, dilation=1):
        return [nn.Conv2d(cin, cout, 3, stride, padding=dilation, dilation=dilation, bias=False),
                nn.BatchNorm2d(cout), nn.ReLU()]

    def separable(c, dilation):
        return [nn.Conv2d(c, c, 3, padding=dilation, dilation=dilation, groups=c, bias=False),
                nn.Conv2d(c, c, 1, bias=False), nn.BatchNorm2d(c), nn.ReLU()]

    head = nn.Conv2d(24, 4, 1)
    nn.init.constant_(head.bias[:1], -2.2)  # most cells hold no index: start from a low heat
    return nn.Sequential(*conv(3, 12, 2), *conv(12, 24, 2), *separable(24, 1), *separable(24, 2),
                         *separable(24, 4), *separable(24, 2), head)


def export(model, path: Path) -> None:
    import torch

    model.eval()
    dummy = torch.zeros(1, 3, 64, 64)
    torch.onnx.export(model, dummy, str(path), input_names=["image"], output_names=["maps"],
                      dynamic_axes={"image": {2: "h", 3: "w"}, "maps": {2: "h", 3: "w"}}, opset_version=17,
                      dynamo=False)


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--scenes", type=int, default=2400)
    ap.add_argument("--epochs", type=int, default=30)
    ap.add_argument("--steps", type=int, default=200, help="batches per epoch")
    ap.add_argument("--batch", type=int, default=32)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--out", type=Path, default=MODEL_PATH)
    ap.add_argument("--cache", type=Path, help="keep the drawn scenes in this .npz (drawn once)")
    args = ap.parse_args(argv)
    import torch
    import torch.nn.functional as F

    torch.manual_seed(args.seed)
    torch.set_num_threads(1)
    t0 = time.time()
    if args.cache and args.cache.exists():
        z = np.load(args.cache)
        data = [(z[f"p{i}"], z[f"m{i}"]) for i in range(len(z.files) // 2)]
    else:
        data = scenes(args.scenes, args.seed, args.workers)
        if args.cache:
            np.savez(args.cache, **{f"{k}{i}": v for i, d in enumerate(data) for k, v in zip("pm", d)})
    held = data[: max(1, len(data) // 20)]
    train = data[len(held):]
    print(f"{len(data)} scenes in {time.time() - t0:.0f} s", flush=True)
    model = build_model()
    opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-4)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=3e-3, total_steps=args.epochs * args.steps)
    rng = np.random.default_rng(args.seed)

    def batch(pool, n):
        items = [crop(*pool[int(rng.integers(len(pool)))], rng) for _ in range(n)]
        return (torch.from_numpy(np.stack([i[0] for i in items])), torch.from_numpy(np.stack([i[1] for i in items])),
                torch.from_numpy(np.stack([i[2] for i in items])))

    def loss_of(out, heat, reg):
        # the centre-point focal loss: the peak cells, and every other cell weighted down the nearer
        # it lies to an index (its heat) and the surer the network already is
        p = torch.sigmoid(out[:, 0]).clamp(1e-4, 1 - 1e-4)
        peak = (heat >= 1.0).float()
        n = max(1.0, float(peak.sum()))
        heat_loss = -(peak * (1 - p) ** 2 * torch.log(p)
                      + (1 - peak) * (1 - heat) ** 4 * p ** 2 * torch.log(1 - p)).sum() / n
        pos = (heat > 0.5).float()
        m = max(1.0, float(pos.sum()))
        d = F.normalize(out[:, 1:3], dim=1)
        dir_loss = ((1 - (d * reg[:, 0:2]).sum(dim=1)) * pos).sum() / m
        size_loss = ((out[:, 3] - reg[:, 2]).abs() * pos).sum() / m
        return heat_loss + dir_loss + size_loss, (heat_loss.item(), dir_loss.item(), size_loss.item())

    val = batch(held, 256)
    for epoch in range(args.epochs):
        model.train()
        total = 0.0
        for _ in range(args.steps):
            x, heat, reg = batch(train, args.batch)
            loss, _ = loss_of(model(x), heat, reg)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            total += loss.item()
        model.eval()
        with torch.no_grad():
            out = model(val[0])
            _, parts = loss_of(out, val[1], val[2])
            p = torch.sigmoid(out[:, 0])
            peak = (val[1] >= 1.0)
            found = float((p[peak] > index_finder.PEAK).float().mean())
            false = float((p[val[1] < 0.1] > index_finder.PEAK).float().mean())
        print(f"epoch {epoch + 1}: train loss {total / args.steps:.3f}, held-out heat/dir/size "
              f"{parts[0]:.3f}/{parts[1]:.3f}/{parts[2]:.3f}, index cells found {found:.3f}, "
              f"empty cells marked {false:.4f} ({time.time() - t0:.0f} s)", flush=True)
        export(model, args.out)


if __name__ == "__main__":
    main()
