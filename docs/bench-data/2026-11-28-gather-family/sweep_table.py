# python3 sweep_table.py sweep_nN.txt: per collective and size, the best of each setting and
# shm / auto, with every round's figure.
import collections, sys
d = collections.defaultdict(list)
for line in open(sys.argv[1]):
    r, c, a, s, t = line.split()
    d[(c, int(s), a)].append(float(t))
for c in ['allgather', 'gather', 'scatter', 'reduce_scatter_block']:
    for s in sorted({k[1] for k in d if k[0] == c}):
        A, S = d[(c, s, 'auto')], d[(c, s, 'shm')]
        print(f"{c:22s} {s:9d} auto {min(A):9.2f}  shm {min(S):9.2f}  shm/auto {min(S)/min(A):5.2f}"
              f"   (auto {'/'.join(map(str, A))}; shm {'/'.join(map(str, S))})")
