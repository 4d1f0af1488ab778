# Helper of scripts/perf/scale-run.sh.
#   python3 scale_run.py sample PID CSV   samples the summed VmRSS of PID and its descendants
#                                         every 0.5 s until PID exits: epoch_ms,tree_rss,procs
#   python3 scale_run.py report OUTDIR    prints the run's figures (markdown) from OUTDIR:
#                                         dry-run.txt, run.txt, history/ops.csv, rss.csv,
#                                         inputs-du.txt, times.txt
import csv, json, os, sys, time
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from tree_rss import tree_rss

def sample(pid, path):
    with open(path, 'w') as f:
        f.write('epoch_ms,tree_rss,procs\n')
        while os.path.exists('/proc/%d' % pid):
            t, _, n = tree_rss(pid)
            f.write('%d,%d,%d\n' % (time.time() * 1000, t, n)); f.flush()
            time.sleep(0.5)

def gb(b): return '%.2f GB' % (b / 1e9)
def mb(b): return '%.1f MB' % (b / 1e6) if b not in ('', None) else ''

def plan_rows(text):
    rows, on = [], False
    for line in text.splitlines():
        if line.strip().startswith('op ') and 'projected' in line: on = True; continue
        if on:
            if not line.startswith('  ') or line.strip().startswith('('): on = False; continue
            c = line.split()
            rows.append((c[0], c[2], c[3] + ' ' + c[4]))
    return rows

def report(out):
    dry = open(os.path.join(out, 'dry-run.txt')).read()
    run = open(os.path.join(out, 'run.txt')).read()
    j = json.loads([l for l in run.splitlines() if l.startswith('{')][-1])
    t0, t1 = [int(x) for x in open(os.path.join(out, 'times.txt')).read().split()]
    ops = list(csv.DictReader(open(os.path.join(out, 'history', 'ops.csv'))))
    rss = [(int(r['epoch_ms']), int(r['tree_rss']), int(r['procs']))
           for r in csv.DictReader(open(os.path.join(out, 'rss.csv')))]
    c0 = min(int(o['start_ms']) for o in ops); c1 = max(int(o['end_ms']) for o in ops)
    inside = [r for r in rss if c0 <= r[0] <= c1] or [(0, 0, 0)]
    before = [r for r in rss if r[0] < c0] or [(0, 0, 0)]
    whole = max(rss, key=lambda r: r[1]) if rss else (0, 0, 0)
    print('Inputs (dry run): ' + next(l for l in dry.splitlines() if l.startswith('Inputs')))
    print('Inputs on disk (du): ' + open(os.path.join(out, 'inputs-du.txt')).read().strip())
    print('Command wall (inputs written, then the means): %.1f s' % ((t1 - t0) / 1e3))
    print('Means compute wall (JSON wall_seconds): %.1f s; ops %.1f s (first op start to last'
          ' op end)' % (j['wall_seconds'], (c1 - c0) / 1e3))
    print('Peak RSS of the process tree: %s whole command (%d processes at that sample);'
          ' %s while writing the inputs; %s during the means compute'
          % (gb(whole[1]), whole[2], gb(max(r[1] for r in before)), gb(max(r[1] for r in inside))))
    print('Coordinator peak RSS (JSON peak_rss_bytes): %s; checksums %s'
          % (gb(j['peak_rss_bytes']), json.dumps(j['checksums'])))
    print()
    print('Dry run: ' + next(l for l in dry.splitlines() if l.startswith('Plan:')))
    print()
    print('| op (run) | tasks | projected (run) | projected (dry run) | max measured peak |'
          ' measured / projected | max worker peak RSS | tasks over projection | op wall s |')
    print('|---|---:|---:|---:|---:|---:|---:|---:|---:|')
    dr = plan_rows(dry)
    for i, o in enumerate(ops):
        d = dr[i][2] if i < len(dr) else ''
        print('| %s | %s | %s | %s | %s | %s | %s | %s | %s |' % (o['op'], o['tasks'],
              mb(int(o['projected_mem'])), d, mb(o['max_measured_peak_mem'] and
              int(o['max_measured_peak_mem'])), o['measured_over_projected'],
              mb(o['max_peak_rss'] and int(o['max_peak_rss'])), o['tasks_over_projection'],
              o['wall_seconds']))

if __name__ == '__main__':
    if sys.argv[1] == 'sample': sample(int(sys.argv[2]), sys.argv[3])
    elif sys.argv[1] == 'report': report(sys.argv[2])
    else: sys.exit('usage: scale_run.py sample PID CSV | report OUTDIR')
