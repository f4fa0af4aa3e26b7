"""Train three real classifiers on render.py's glyphs and score the held-out
test renderings against all M classes:

  softmax  a 2-layer MLP (1024-512-M) trained with cross-entropy; its logits
  ovr      the same network trained one-vs-rest (binary cross-entropy per class);
           its logits, whose sigmoid is each class's own probability
  centroid nearest-centroid Euclidean distance in the softmax MLP's 512-d hidden
           layer (class centroid = mean of the class's training renderings)

usage: python3 train.py GLYPHS.npz FULL.npz

FULL.npz holds the N x M matrices logits_softmax, logits_ovr, dist_centroid,
test_y, classes, the hidden features of the test and training renderings
(feat_test, feat_train, train_y) and, per classifier, truth_<name>: the exact
class-balanced accuracy at every k = 2..M over the M classes (docs/formats.md §2),
computed here in float64 independently of cleanex, also written beside
FULL.npz as truth-<name>.csv (k,truth, the form `cleanex predict --truth` reads).
"""
import math, os, sys
import numpy as np
import torch

torch.manual_seed(1)
torch.set_num_threads(2)
d = np.load(sys.argv[1])
X = torch.tensor(d['train_x'], dtype=torch.float32).reshape(len(d['train_x']), -1) / 255
Y = torch.tensor(d['train_y'])
T = torch.tensor(d['test_x'], dtype=torch.float32).reshape(len(d['test_x']), -1) / 255
TY = torch.tensor(d['test_y'])
M = int(Y.max()) + 1


def norm(a):
    a = a - a.mean(1, keepdim=True)
    return a / a.norm(dim=1, keepdim=True).clamp_min(1e-6)


X, T = norm(X), norm(T)


def net():
    return torch.nn.Sequential(torch.nn.Linear(1024, 512), torch.nn.ReLU(), torch.nn.Dropout(0.2), torch.nn.Linear(512, M))


def fit(loss_name, epochs=25):
    m = net()
    opt = torch.optim.Adam(m.parameters(), lr=1e-3, weight_decay=1e-5)
    sched = torch.optim.lr_scheduler.CosineAnnealingLR(opt, epochs)
    for ep in range(epochs):
        m.train()
        perm = torch.randperm(len(X))
        for i in range(0, len(X), 256):
            b = perm[i:i + 256]
            out = m(X[b])
            if loss_name == 'softmax':
                loss = torch.nn.functional.cross_entropy(out, Y[b])
            else:
                tgt = torch.nn.functional.one_hot(Y[b], M).float()
                loss = torch.nn.functional.binary_cross_entropy_with_logits(out, tgt, reduction='sum') / len(b)
            opt.zero_grad(); loss.backward(); opt.step()
        sched.step()
        m.eval()
        with torch.no_grad():
            acc = (m(T).argmax(1) == TY).float().mean().item()
        print(f'{loss_name} epoch {ep + 1}: loss {loss.item():.3f}, test top-1 over {M} classes {acc:.3f}', file=sys.stderr)
    return m


def truth(S, y, higher=True):
    """Exact class-balanced accuracy at k = 2..K: sum_x w_x prod_{i<k} (R_x+1-i)/(K-i)."""
    S = torch.as_tensor(S, dtype=torch.float64)
    y = torch.as_tensor(y)
    if not higher:
        S = -S
    K = S.shape[1]
    c = S[torch.arange(len(y)), y]
    R = (S < c[:, None]).sum(1).double()
    r = torch.bincount(y, minlength=K).double()
    w = 1 / (K * r[y])
    ks = torch.arange(2, K + 1, dtype=torch.float64)
    j = ks - 1  # k - 1 factors
    num = torch.lgamma(R[:, None] + 1) - torch.lgamma((R[:, None] + 1 - j[None, :]).clamp_min(1))
    den = torch.lgamma(torch.tensor(float(K), dtype=torch.float64)) - torch.lgamma(K - j)
    p = torch.where(R[:, None] >= j[None, :], torch.exp(num - den[None, :]), torch.zeros(()))
    return (w[:, None] * p).sum(0).numpy()


sm = fit('softmax')
ovr = fit('ovr')
with torch.no_grad():
    ls = sm(T).double()
    lo = ovr(T).double()
    hid = torch.nn.Sequential(*list(sm.children())[:2])
    ft, fx = hid(T).double(), hid(X).double()
cent = torch.zeros(M, ft.shape[1], dtype=torch.float64).index_add_(0, Y, fx) / torch.bincount(Y, minlength=M)[:, None]
dist = torch.cdist(ft, cent)
ty = TY.numpy()
out = dict(logits_softmax=ls.numpy(), logits_ovr=lo.numpy(), dist_centroid=dist.numpy(), test_y=ty,
           classes=d['classes'], feat_test=ft.numpy(), feat_train=fx.numpy(), train_y=Y.numpy())
for name, S, hi in (('softmax', ls, True), ('ovr', lo, True), ('centroid', dist, False)):
    out['truth_' + name] = truth(S, ty, hi)
    t = out['truth_' + name]
    print(f'{name}: true accuracy at k=2 {t[0]:.4f}, 50 {t[48]:.4f}, 100 {t[98]:.4f}, 200 {t[198]:.4f}, {M} {t[-1]:.4f}', file=sys.stderr)
np.savez_compressed(sys.argv[2], **out)
for name in ('softmax', 'ovr', 'centroid'):
    with open(os.path.join(os.path.dirname(os.path.abspath(sys.argv[2])), f'truth-{name}.csv'), 'w') as f:
        f.write('k,truth\n')
        for k, v in enumerate(out['truth_' + name], start=2):
            f.write(f'{k},{v!r}\n')
