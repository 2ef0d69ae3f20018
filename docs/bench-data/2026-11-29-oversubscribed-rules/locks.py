# Executed lock-prefixed (and xchg with memory, mfence) instructions in libhalyard*, from a callgrind
# file made with --dump-instr=yes --compress-pos=no --compress-strings=no.
import re, sys, collections
f = sys.argv[1]
libs = {'/work/main/build/dev/libhalyard.so.0.1.0': 'libhalyard.so.0.1.0.dis',
        '/work/main/build/dev/lib/libhalyard_mpi.so.0.1.0': 'libhalyard_mpi.so.0.1.0.dis'}
# symbol offsets and lock instruction offsets per lib
syms = {}; locks = {}
for lib, dis in libs.items():
    s = {}; l = {}; cur = None
    for line in open(dis):
        m = re.match(r'^([0-9a-f]+) <(.*)>:$', line)
        if m:
            cur = m.group(2); s.setdefault(cur, int(m.group(1), 16)); continue
        m = re.match(r'^\s+([0-9a-f]+):\s+(.*)$', line)
        if m and re.search(r'\block\b|mfence|\bxchg\s+%\w+,\s*(0x|\(|-)', m.group(2)):
            l[int(m.group(1), 16)] = (cur, m.group(2).strip())
    syms[lib] = s; locks[lib] = l
ob = fn = None; in_call = False
executed = collections.defaultdict(int)  # (lib, addr) -> count
first_addr = {}  # (lib, fn) -> min addr
for line in open(f):
    line = line.rstrip('\n')
    if line.startswith('ob='): ob = line[3:]; continue
    if line.startswith('fn='): fn = line[3:]; continue
    if line.startswith('calls='): in_call = True; continue
    m = re.match(r'^(0x[0-9a-f]+) \d+ (\d+)', line)
    if m:
        a = int(m.group(1), 16); c = int(m.group(2))
        if in_call: in_call = False; continue
        if ob in libs:
            executed[(ob, a)] += c
            key = (ob, fn)
            first_addr[key] = min(first_addr.get(key, a), a)
        continue
    if line.startswith(('cob=', 'cfi=', 'cfn=', 'fl=', 'fi=', 'fe=', 'jump=', 'jcnd=')): continue
# base per lib: from functions whose symbol we know and whose first executed address is its entry
for lib in libs:
    bases = collections.Counter()
    for (l, fn_), a in first_addr.items():
        if l != lib: continue
        name = fn_
        for sname, off in syms[lib].items():
            if sname == name:
                bases[a - off] += 1
                break
    if not bases: continue
    base = bases.most_common(1)[0][0]
    print('==', lib, 'base', hex(base), 'votes', bases.most_common(2))
    for (l, a), c in sorted(executed.items()):
        if l != lib: continue
        off = a - base
        if off in locks[lib]:
            print(f'  {c:8d}  {hex(off)}  {locks[lib][off][1]:40s} {locks[lib][off][0][:120]}')
