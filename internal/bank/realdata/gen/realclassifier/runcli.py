"""Run `cleanex predict --k2 M` on every pilot of pilots.py's MANIFEST.tsv and
write one row per file: the estimate and its 80% interval at k2 = M against the
truth, and what cleanex said on stderr about how it read the scores.

With TRUTHDIR (holding train.py's truth-<classifier>.csv, k,truth for
k = 2..M), each run
gets --truth and the row adds rmse, the estimate's RMSE against the truth over
k = 2..M.

usage: python3 runcli.py CLEANEX PILOTDIR M [TRUTHDIR] > results.tsv
"""
import csv, subprocess, sys, time

cli, pdir, M = sys.argv[1], sys.argv[2], int(sys.argv[3])
tdir = sys.argv[4] if len(sys.argv) > 4 else ''
print('\t'.join(['file', 'classifier', 'k1', 'seed', 'form', 'truth', 'estimate', 'lo', 'hi', 'covered',
                 'width', 'error', 'rmse', 'plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex', 'seconds', 'stderr']))
for m in csv.DictReader(open(f'{pdir}/MANIFEST.tsv'), delimiter='\t'):
    t0 = time.time()
    args = [cli, 'predict', '--k2', str(M)]
    if tdir:
        args += ['--truth', f"{tdir}/truth-{m['classifier']}.csv"]
    p = subprocess.run(args + [f"{pdir}/{m['file']}"], capture_output=True, text=True)
    sec = time.time() - t0
    err = ' | '.join(l for l in p.stderr.splitlines() if l.strip())
    if p.returncode != 0:
        print('\t'.join([m['file'], m['classifier'], m['k1'], m['seed'], m['form'], m['truth_at_M']] + [''] * 13 + [f'{sec:.1f}', 'FAILED: ' + err]))
        continue
    rows = list(csv.DictReader(p.stdout.splitlines()))
    last = rows[-1]
    assert int(last['k']) == M
    truth = float(m['truth_at_M'])
    est, lo, hi = float(last['estimate']), float(last['estimate_lo']), float(last['estimate_hi'])
    rmse = ''
    if tdir:
        rmse = '%.4f' % (sum((float(r['estimate']) - float(r['truth'])) ** 2 for r in rows) / len(rows)) ** 0.5
    meth = [last.get(k, '') for k in ('plugin', 'kde', 'pooled', 'tail', 'regression', 'cleanex')]
    meth = [repr(float(v)) if v else '' for v in meth]
    print('\t'.join([m['file'], m['classifier'], m['k1'], m['seed'], m['form'], repr(truth), repr(est), repr(lo), repr(hi),
                     str(int(lo <= truth <= hi)), f'{hi - lo:.4f}', f'{est - truth:+.4f}', rmse] + meth + [f'{sec:.1f}', err]), flush=True)
