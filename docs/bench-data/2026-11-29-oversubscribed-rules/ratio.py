import sys, re, collections
# parse vs4.sh output: "## impl round r", "# MPI_X latency", "size avg min max"
best = collections.defaultdict(dict)
impl = coll = None
for f in sys.argv[1:]:
    for line in open(f):
        m = re.match(r'## (\S+) round', line)
        if m: impl = m.group(1); continue
        m = re.match(r'# MPI_(\S+) latency', line)
        if m: coll = m.group(1); continue
        p = line.split()
        if len(p) >= 2 and re.match(r'^\d', p[0]):
            key = (coll, int(p[0]))
            v = float(p[1])
            if impl not in best[key] or v < best[key][impl]: best[key][impl] = v
for (coll, size), d in sorted(best.items()):
    h = d.get('halyard'); peers = {k: v for k, v in d.items() if k != 'halyard'}
    if h is None or not peers: continue
    pb = min(peers.values())
    flag = '  <-- LOSS' if h > pb * 1.0 + 1e-9 else ''
    print(f"{coll:22s} {size:8d} halyard {h:9.2f} best_peer {pb:9.2f} ({min(peers, key=peers.get)}) ratio {h/pb:5.2f}{flag}")
