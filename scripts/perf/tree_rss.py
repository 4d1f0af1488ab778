# Runs a command (a ./cubed bench JSON-line command), samples the summed VmRSS of it and its
# children every 100 ms, and prints one JSON line: wall, whole-tree peak RSS, coordinator peak RSS.
# Usage: python3 scripts/perf/tree_rss.py java ... dev.cubed.cli.Main bench WORKLOAD ...
# tree_rss(pid) is imported by scripts/perf/scale_run.py.
import subprocess, sys, time, os, json
def tree_rss(root):
    kids={}
    for p in os.listdir('/proc'):
        if p.isdigit():
            try:
                st=open('/proc/%s/stat'%p).read()
                ppid=int(st.rsplit(')',1)[1].split()[1]); kids.setdefault(ppid,[]).append(int(p))
            except Exception: pass
    tot=0; coord=0; stack=[root]; n=0
    while stack:
        q=stack.pop(); n+=1
        try:
            for l in open('/proc/%d/status'%q):
                if l.startswith('VmRSS:'):
                    v=int(l.split()[1])*1024; tot+=v
                    if q==root: coord=v
        except Exception: pass
        stack+=kids.get(q,[])
    return tot,coord,n
if __name__ == '__main__':
    p=subprocess.Popen(sys.argv[1:],stdout=subprocess.PIPE,stderr=subprocess.DEVNULL)
    mx=(0,0,0); mc=0
    while p.poll() is None:
        t,c,n=tree_rss(p.pid); mx=max(mx,(t,c,n)); mc=max(mc,c); time.sleep(0.1)
    out=p.stdout.read().decode().strip().splitlines()[-1]
    j=json.loads(out)
    print(json.dumps({"workload":j["workload"],"executor":j["executor"],"wall":j["wall_seconds"],"tree_peak_rss":mx[0],"coord_peak_rss_sampled":mc,"procs":mx[2],"bench_peak_rss_timed":j.get("peak_rss_bytes"),"max_projected":j["max_projected_mem"],"allowed":j["allowed_mem"],"checksums":j["checksums"]}))
