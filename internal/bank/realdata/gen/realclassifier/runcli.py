"""Run `cleanex predict --k2 M` on every pilot of pilots.py's MANIFEST.tsv and
write one row per file: the estimate and its 80% interval at k2 = M against the
truth, and what cleanex said on stderr about how it read the scores.

usage: python3 runcli.py CLEANEX PILOTDIR M > results.tsv
"""
import csv, subprocess, sys, time

cli, pdir, M = sys.argv[1], sys.argv[2], int(sys.argv[3])
print('\t'.join(['file', 'classifier', 'k1', 'seed', 'form', 'truth', 'estimate', 'lo', 'hi', 'covered',
                 'width', 'error', 'plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex', 'seconds', 'stderr']))
for m in csv.DictReader(open(f'{pdir}/MANIFEST.tsv'), delimiter='\t'):
    t0 = time.time()
    p = subprocess.run([cli, 'predict', '--k2', str(M), f"{pdir}/{m['file']}"], capture_output=True, text=True)
    sec = time.time() - t0
    err = ' | '.join(l for l in p.stderr.splitlines() if l.strip())
    if p.returncode != 0:
        print('\t'.join([m['file'], m['classifier'], m['k1'], m['seed'], m['form'], m['truth_at_M']] + [''] * 12 + [f'{sec:.1f}', 'FAILED: ' + err]))
        continue
    rows = list(csv.DictReader(p.stdout.splitlines()))
    last = rows[-1]
    assert int(last['k']) == M
    truth = float(m['truth_at_M'])
    est, lo, hi = float(last['estimate']), float(last['estimate_lo']), float(last['estimate_hi'])
    meth = [last.get(k, '') for k in ('plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex')]
    meth = [repr(float(v)) if v else '' for v in meth]
    print('\t'.join([m['file'], m['classifier'], m['k1'], m['seed'], m['form'], repr(truth), repr(est), repr(lo), repr(hi),
                     str(int(lo <= truth <= hi)), f'{hi - lo:.4f}', f'{est - truth:+.4f}'] + meth + [f'{sec:.1f}', err]), flush=True)
