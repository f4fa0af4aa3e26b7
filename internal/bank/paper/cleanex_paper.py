"""Published CleaneX (Slavutsky & Benjamini, ICLR 2021) in PyTorch: a
benchmark-only reference.

The product is Go (internal/estimate/cleanex); this script exists only so that
`./build.sh bench` (stage BENCH_PAPER=1) and `go run ./cmd/calibrate paper`
can compare the recommended estimate with the paper's own settings on the
benchmark bank. Nothing in the product imports or runs it.

What it fits, as the paper's Sections 4-5 and Algorithm 1 specify and as the
project reads them (internal/estimate/cleanex: Paper() preset, AllScores
encoding):

* input of a point x: its correct score followed by its K-1 incorrect scores
  sorted ascending (scores oriented so that higher is better), every value
  z-normalised by the mean and standard deviation of all N x K scores;
* network: K -> 512 -> 128 -> 1, ReLU between layers, sigmoid output C_x;
  Glorot-uniform weights and zero biases (TensorFlow's defaults, which the
  paper used);
* Adam, learning rate 1e-4, 10,000 full-batch steps;
* loss  sum_{k=2..K} (sum_x w_x C_x^(k-1) - Abar_k)^2  with the
  class-balanced weights w_x = 1 / (K r_y) (1/N when every class has r
  points, as in the paper) and Abar_k the pilot's exact observed curve;
* prediction  E_k = sum_x w_x C_x^(k-1)  for k = 2..k2, E_0 = E_1 = 1.

Powers are computed in log space, C^(k-1) = exp((k-1) log sigma(z)), in
float64; the network runs in float32 as in TensorFlow.

Input (written by `calibrate paper`; all little-endian): the 4 bytes b"CXP1",
int64 N, int64 K, then float64 arrays Weight[N], Correct[N],
Incorrect[N*(K-1)] (row-major, each row sorted ascending) and Observed[K+1]
(Abar_k, k = 0..K).

Output: float64 little-endian E_k for k = 0..k2 in OUT, and one JSON line on
stdout: {"loss": final loss, "seconds": training seconds, "steps": ...}.

Run it (Debian's python3 with python3-torch and python3-numpy):

    /usr/bin/python3 internal/bank/paper/cleanex_paper.py IN OUT K2 \
        [--seed 1] [--threads 2] [--steps 10000] [--hidden 512,128]
"""

import argparse
import json
import struct
import sys
import time

import numpy as np
import torch


def read_input(path):
    """Reads the sample written by `calibrate paper` (see the module doc)."""
    with open(path, "rb") as f:
        data = f.read()
    if data[:4] != b"CXP1":
        raise ValueError(f"{path}: not a CXP1 file")
    n, k = struct.unpack_from("<qq", data, 4)
    v = np.frombuffer(data, dtype="<f8", offset=20)
    want = n + n + n * (k - 1) + k + 1
    if v.size != want:
        raise ValueError(f"{path}: {v.size} values, want {want} for N={n}, K={k}")
    w, v = v[:n], v[n:]
    correct, v = v[:n], v[n:]
    incorrect, v = v[: n * (k - 1)].reshape(n, k - 1), v[n * (k - 1):]
    observed = v
    return w.copy(), correct.copy(), incorrect.copy(), observed.copy(), k


def encode(correct, incorrect):
    """The published input: correct score then sorted incorrect scores,
    z-normalised by the mean and sd of all N x K scores."""
    x = np.concatenate([correct[:, None], incorrect], axis=1)
    mean, sd = x.mean(), x.std()
    if sd == 0:
        sd = 1.0
    return ((x - mean) / sd).astype(np.float32)


def network(k, hidden=(512, 128)):
    """K -> 512 -> 128 -> 1 (or the given hidden sizes) with ReLU,
    Glorot-uniform weights, zero biases; it returns the logit z
    (C_x = sigmoid(z))."""
    layers, n = [], k
    for h in hidden:
        layers += [torch.nn.Linear(n, h), torch.nn.ReLU()]
        n = h
    net = torch.nn.Sequential(*layers, torch.nn.Linear(n, 1))
    for m in net:
        if isinstance(m, torch.nn.Linear):
            torch.nn.init.xavier_uniform_(m.weight)
            torch.nn.init.zeros_(m.bias)
    return net


def curve_from_logc(logc, w, kmax):
    """E_k = sum_x w_x exp((k-1) log C_x) for k = 0..kmax (E_0 = E_1 = 1),
    non-increasing after rounding, in float64."""
    ks = np.arange(1, kmax, dtype=np.float64)  # k - 1 for k = 2..kmax
    e = np.empty(kmax + 1)
    e[0] = e[1] = 1.0
    # chunks of k keep memory at N x 4096 doubles
    for lo in range(0, ks.size, 4096):
        kk = ks[lo:lo + 4096]
        e[2 + lo:2 + lo + kk.size] = w @ np.exp(np.outer(logc, kk))
    e = np.clip(e, 0.0, 1.0)
    return np.minimum.accumulate(e)


def fit(w, correct, incorrect, observed, k, steps, seed, log_every=0, hidden=(512, 128)):
    """Trains the published network; returns log C_x (float64) and the final loss."""
    torch.manual_seed(seed)
    x = torch.from_numpy(encode(correct, incorrect))
    wt = torch.from_numpy(w)  # float64
    target = torch.from_numpy(observed[2:k + 1])  # Abar_k, k = 2..K
    km1 = torch.arange(1, k, dtype=torch.float64)  # k - 1, k = 2..K
    net = network(k, hidden)
    opt = torch.optim.Adam(net.parameters(), lr=1e-4)
    loss_v = float("nan")
    for step in range(1, steps + 1):
        opt.zero_grad(set_to_none=True)
        z = net(x).squeeze(1)
        logc = torch.nn.functional.logsigmoid(z.double())
        e = torch.exp(logc[:, None] * km1[None, :]).T @ wt  # E_k, k = 2..K
        loss = ((e - target) ** 2).sum()
        loss.backward()
        opt.step()
        loss_v = loss.item()
        if log_every and step % log_every == 0:
            print(f"step {step} loss {loss_v:.3e}", file=sys.stderr)
    with torch.no_grad():
        z = net(x).squeeze(1)
        logc = torch.nn.functional.logsigmoid(z.double())
        e = torch.exp(logc[:, None] * km1[None, :]).T @ wt
        loss_v = ((e - target) ** 2).sum().item()
    return logc.numpy(), loss_v


def main(argv):
    ap = argparse.ArgumentParser(description="published CleaneX (benchmark-only reference)")
    ap.add_argument("input")
    ap.add_argument("output")
    ap.add_argument("k2", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--threads", type=int, default=2)
    ap.add_argument("--steps", type=int, default=10000)
    ap.add_argument("--log-every", type=int, default=0)
    ap.add_argument("--hidden", default="512,128",
                    help="hidden layer sizes (the paper's 512,128; others are for checks only)")
    a = ap.parse_args(argv)
    if a.k2 < 2:
        raise SystemExit("k2 must be at least 2")
    torch.set_num_threads(a.threads)
    np.random.seed(a.seed)
    w, correct, incorrect, observed, k = read_input(a.input)
    start = time.monotonic()
    hidden = tuple(int(h) for h in a.hidden.split(","))
    logc, loss = fit(w, correct, incorrect, observed, k, a.steps, a.seed, a.log_every, hidden)
    secs = time.monotonic() - start
    curve = curve_from_logc(logc, w, a.k2)
    curve.astype("<f8").tofile(a.output)
    print(json.dumps({"loss": loss, "seconds": secs, "steps": a.steps, "n": int(w.size), "k": k}))


if __name__ == "__main__":
    main(sys.argv[1:])
