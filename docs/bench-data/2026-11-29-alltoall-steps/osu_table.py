import sys, collections, statistics
d=collections.defaultdict(list)
for line in open(sys.argv[1]):
    p,i,r,s,t=line.split(); d[(p,int(s),i)].append(float(t))
impls=sys.argv[2].split()
progs=sorted({k[0] for k in d}); 
for p in progs:
    print(f"# {p}: median of rounds (us); ratio s32 / best peer")
    print("size " + " ".join(impls) + " ratio")
    for s in sorted({k[1] for k in d if k[0]==p}):
        med={i:statistics.median(d[(p,s,i)]) for i in impls if d[(p,s,i)]}
        peers=[med[i] for i in ("ompi","mpich") if i in med]
        ratio=med["s32"]/min(peers) if peers else float('nan')
        print(s, " ".join(f"{med.get(i,float('nan')):.2f}" for i in impls), f"{ratio:.2f}")
