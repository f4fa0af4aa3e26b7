"""Draw pilots of k1 classes from train.py's M-class test matrices and write each
the ways a researcher would (under OUTDIR; MANIFEST.tsv lists them with the truth
at k2 = M):

  softmax-*-logits.csv        the softmax MLP's logits
  softmax-*-probs.csv         softmax over the pilot's k1 logits (rows sum to 1), %.17g
  softmax-*-probs.csv.gz      the same, gzip-compressed
  softmax-*-probs32.npz       the same as float32 scores, integer labels and class names
  softmax-*-logprobs.csv      log-softmax over the pilot's k1 logits
  softmax-*-fullprobs.csv     the M-class softmax's probabilities of the pilot's k1 classes
                              (rows sum to less than 1)
  ovr-*-logits.csv            the one-vs-rest network's logits
  ovr-*-sigmoid.csv           their sigmoids (each class's own probability), %.17g
  ovr-*-sigmoid32.npz         the same as float32
  centroid-*-dist.csv         nearest-centroid Euclidean distances (lower is better)
  centroid-*-emb.npz          the pilot's test and training embeddings (hidden layer)

usage: python3 pilots.py FULL.npz OUTDIR [k1,k1,...] [seeds]
"""
import csv, gzip, io, os, sys
import numpy as np

d = np.load(sys.argv[1])
out = sys.argv[2]
k1s = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else '50,100,200').split(',')]
seeds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
os.makedirs(out, exist_ok=True)
names = [str(c) for c in d['classes']]
M = len(names)
y = d['test_y']


def write_csv(path, S, lab, cls, fmt='%.17g'):
    buf = io.StringIO()
    buf.write('label,' + ','.join(cls) + '\n')
    for i in range(len(S)):
        buf.write(cls[lab[i]] + ',' + ','.join(fmt % v for v in S[i]) + '\n')
    data = buf.getvalue().encode()
    if path.endswith('.gz'):
        with gzip.open(path, 'wb') as f:
            f.write(data)
    else:
        with open(path, 'wb') as f:
            f.write(data)


def softmax(z):
    z = z - z.max(1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(1, keepdims=True)


def logsoftmax(z):
    m = z.max(1, keepdims=True)
    return z - m - np.log(np.exp(z - m).sum(1, keepdims=True))


man = open(os.path.join(out, 'MANIFEST.tsv'), 'w')
man.write('file\tclassifier\tk1\tseed\tform\tdirection\ttruth_at_M\tobserved_at_k1\n')
full_sm = softmax(d['logits_softmax'])
for k1 in k1s:
    for s in range(1, seeds + 1):
        cls = np.sort(np.random.default_rng(1000 * k1 + s).permutation(M)[:k1])
        pos = -np.ones(M, dtype=np.int64); pos[cls] = np.arange(k1)
        rows = np.nonzero(pos[y] >= 0)[0]
        lab = pos[y[rows]]
        cn = [names[c] for c in cls]
        tag = f'k{k1}-s{s}'
        files = []
        z = d['logits_softmax'][np.ix_(rows, cls)]
        write_csv(f'{out}/softmax-{tag}-logits.csv', z, lab, cn); files.append(('softmax', 'logits', 'softmax-%s-logits.csv', 'higher'))
        p = softmax(z)
        write_csv(f'{out}/softmax-{tag}-probs.csv', p, lab, cn); files.append(('softmax', 'probs', 'softmax-%s-probs.csv', 'higher'))
        write_csv(f'{out}/softmax-{tag}-probs.csv.gz', p, lab, cn); files.append(('softmax', 'probs-gz', 'softmax-%s-probs.csv.gz', 'higher'))
        np.savez(f'{out}/softmax-{tag}-probs32.npz', scores=p.astype(np.float32), labels=lab, classes=np.array(cn)); files.append(('softmax', 'probs-npz32', 'softmax-%s-probs32.npz', 'higher'))
        write_csv(f'{out}/softmax-{tag}-logprobs.csv', logsoftmax(z), lab, cn); files.append(('softmax', 'logprobs', 'softmax-%s-logprobs.csv', 'higher'))
        write_csv(f'{out}/softmax-{tag}-fullprobs.csv', full_sm[np.ix_(rows, cls)], lab, cn); files.append(('softmax', 'fullprobs', 'softmax-%s-fullprobs.csv', 'higher'))
        zo = d['logits_ovr'][np.ix_(rows, cls)]
        write_csv(f'{out}/ovr-{tag}-logits.csv', zo, lab, cn); files.append(('ovr', 'logits', 'ovr-%s-logits.csv', 'higher'))
        sg = 1 / (1 + np.exp(-zo))
        write_csv(f'{out}/ovr-{tag}-sigmoid.csv', sg, lab, cn); files.append(('ovr', 'sigmoid', 'ovr-%s-sigmoid.csv', 'higher'))
        np.savez(f'{out}/ovr-{tag}-sigmoid32.npz', scores=sg.astype(np.float32), labels=lab, classes=np.array(cn)); files.append(('ovr', 'sigmoid-npz32', 'ovr-%s-sigmoid32.npz', 'higher'))
        dc = d['dist_centroid'][np.ix_(rows, cls)]
        write_csv(f'{out}/centroid-{tag}-dist.csv', dc, lab, cn); files.append(('centroid', 'dist', 'centroid-%s-dist.csv', 'lower'))
        tr = np.nonzero(pos[d['train_y']] >= 0)[0]
        np.savez(f'{out}/centroid-{tag}-emb.npz', test=d['feat_test'][rows], test_labels=lab,
                 train=d['feat_train'][tr], train_labels=pos[d['train_y'][tr]], classes=np.array(cn))
        files.append(('centroid', 'embeddings', 'centroid-%s-emb.npz', 'lower'))
        for clf, form, pat, direc in files:
            t = d['truth_' + clf]
            # the pilot's own observed top-1 accuracy (k = k1), class-balanced
            S = {'softmax': z, 'ovr': zo, 'centroid': -dc}[clf]
            c = S[np.arange(len(lab)), lab]
            win = (S < c[:, None]).sum(1) == k1 - 1
            r = np.bincount(lab, minlength=k1)
            obs = (win / (k1 * r[lab])).sum()
            man.write(f'{pat % tag}\t{clf}\t{k1}\t{s}\t{form}\t{direc}\t{t[-1]:.6f}\t{obs:.6f}\n')
man.close()
