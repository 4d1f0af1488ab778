# alloc_top.py FILE.jfr [N]: the N largest allocation sites of a JFR recording made with
# settings=profile: (jdk.ObjectAllocationSample) summed by weight,
# grouped by the first dev.cubed frame (or the top frame) and object class.
import json, subprocess, sys, collections
out = subprocess.run(["jfr", "print", "--json", "--events", "jdk.ObjectAllocationSample", sys.argv[1]],
                     capture_output=True, text=True).stdout
ev = json.loads(out)["recording"]["events"]
by = collections.Counter(); tot = 0
for e in ev:
    v = e["values"]; w = v["weight"]; tot += w
    frames = v["stackTrace"]["frames"] if v.get("stackTrace") else []
    names = [f["method"]["type"]["name"].split(".")[-1] + "." + f["method"]["name"] for f in frames]
    cub = [f["method"]["type"]["name"] for f in frames]
    pick = None
    for i, f in enumerate(frames):
        t = f["method"]["type"]["name"]
        if t.startswith("dev.cubed") :
            pick = " < ".join(names[max(0, i - 1):i + 2]); break
    if pick is None: pick = " < ".join(names[:3])
    cls = v["objectClass"]["name"]
    by[(pick, cls)] += w
print(f"total sampled weight {tot/1e9:.2f} GB, {len(ev)} samples")
for (k, c), w in by.most_common(int(sys.argv[2]) if len(sys.argv) > 2 else 12):
    print(f"{100*w/tot:5.1f}% {w/1e9:7.2f} GB  {c}  {k}")
