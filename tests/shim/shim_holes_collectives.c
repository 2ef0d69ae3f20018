/* Datatypes with holes in the v and w collectives and the neighborhood collectives (issue 25):
 * MPI_Gatherv, MPI_Scatterv, MPI_Allgatherv, MPI_Alltoallv, MPI_Alltoallw and
 * MPI_Neighbor_allgather(v) / alltoall(v, w), blocking, non-blocking and persistent (MPI_*_init,
 * started twice with new data), with
 * - a vector with holes (2 ints, 1 apart), a struct of 2 ints resized with a 2-int gap after
 *   them, and an indexed type whose first int lies 2 ints below its origin (negative lower bound);
 * - mixed sides: a contiguous type on one side and a holed one on the other (equal type
 *   signatures), and MPI_INT on both sides;
 * - uneven counts, zero included, and blocks laid out in reverse rank order with gaps around a
 *   buffer pointer in the middle of the allocation, so that some displacements are negative;
 * - MPI_IN_PLACE where MPI allows it (gatherv / scatterv at the root, allgatherv, alltoallv / w);
 * - a cartesian ring, periodic (a rank can be the same neighbour twice) and not (MPI_PROC_NULL
 *   neighbours, whose receive blocks must stay untouched), for the neighborhood collectives.
 * Every int of every buffer is checked against a serial reference: received data where it
 * belongs, the sentinel everywhere else (holes and gaps of receive buffers), and the send
 * buffers unchanged.
 *
 *   shim_holes_collectives
 */
#include <mpi.h>
#include <string.h>

#include "shim_check.h"

enum { MAXP = 8, MAXINTS = 1024, SENTINEL = -1, GARBAGE = -7, NOTHING = -1 };

/* A datatype whose items hold `ipi` ints, item k's int j at k * extent + offsets[j] (in ints
 * from the block's origin); `lead` ints lie below the origin. */
typedef struct {
  const char* name;
  MPI_Datatype type;
  int ipi, extent, lead, offsets[2];
} Kind;

enum { CONTIG, VEC, GAP, NEG, KINDS };
static Kind kinds[KINDS];

static int rank, size;

/* How a call is made; a persistent one (MPI_*_init) is started in two rounds with new data. */
enum Form { BLOCKING, NONBLOCKING, PERSISTENT };
static const char* form_prefix[] = {"", "I", "(init) "};
static MPI_Request persistent = MPI_REQUEST_NULL; /* made by the first round */
static int delta = 0;                             /* added to every value: 10 in round 1 */

static void make_kinds(void) {
  kinds[CONTIG] = (Kind){"MPI_INT", MPI_INT, 1, 1, 0, {0, 0}};
  MPI_Datatype vec, pair, gap, neg;
  MPI_Type_vector(2, 1, 2, MPI_INT, &vec);
  int lengths[2] = {1, 1};
  MPI_Aint at[2] = {0, (MPI_Aint)sizeof(int)};
  MPI_Datatype ints[2] = {MPI_INT, MPI_INT};
  MPI_Type_create_struct(2, lengths, at, ints, &pair);
  MPI_Type_create_resized(pair, 0, 4 * (MPI_Aint)sizeof(int), &gap);
  MPI_Type_free(&pair);
  int below[2] = {-2, 1};
  MPI_Type_indexed(2, lengths, below, MPI_INT, &neg);
  MPI_Type_commit(&vec);
  MPI_Type_commit(&gap);
  MPI_Type_commit(&neg);
  kinds[VEC] = (Kind){"vector", vec, 2, 3, 0, {0, 2}};
  kinds[GAP] = (Kind){"resized struct", gap, 2, 4, 0, {0, 1}};
  kinds[NEG] = (Kind){"negative lb", neg, 2, 4, 2, {-2, 1}};
  MPI_Aint lb, extent;
  MPI_Type_get_extent(neg, &lb, &extent);
  CHECK(lb == -2 * (MPI_Aint)sizeof(int) && extent == 4 * (MPI_Aint)sizeof(int));
}

/* One buffer's blocks: block i holds `len` ints (count * ipi of its kind) from value `base`
 * on (NOTHING: not received, its memory keeps the sentinel). `at` is the block's origin in
 * ints from the buffer pointer, data + shift. */
typedef struct {
  int n;
  int kind[MAXP], len[MAXP], base[MAXP], at[MAXP];
  int counts[MAXP], displs[MAXP], bytes[MAXP];
  MPI_Aint abytes[MAXP];
  MPI_Datatype types[MAXP];
  int shift, ints;
  int data[MAXINTS], want[MAXINTS];
} Side;

static Side S, R; /* the send and the receive side of one call */

/* CONSECUTIVE: block i at i * count * extent (the non-v forms, and a single own block);
 * SPREAD: reverse order with gaps, the pointer in the middle (negative displacements), at
 * multiples of the extent when the form takes displacements in extents (V) or anywhere (W). */
enum Mode { CONSECUTIVE, SPREAD_V, SPREAD_W };

static void layout(Side* s, int n, const int* kind, const int* len, const int* base,
                   enum Mode mode) {
  memset(s, 0, sizeof *s);
  s->n = n;
  int cursor = 0, lead = 0;
  for (int i = 0; i < n; ++i) {
    const Kind* k = &kinds[kind[i]];
    s->kind[i] = kind[i];
    s->len[i] = len[i];
    s->base[i] = base[i];
    s->counts[i] = len[i] / k->ipi;
    s->types[i] = k->type;
    if (k->lead > lead) lead = k->lead;
  }
  if (mode == CONSECUTIVE) {
    for (int i = 0; i < n; ++i) s->at[i] = i * s->counts[i] * kinds[kind[i]].extent;
    s->shift = lead;
    cursor = lead + (n > 0 ? n * s->counts[0] * kinds[kind[0]].extent : 0);
  } else {
    int absolute[MAXP];
    for (int i = n - 1; i >= 0; --i) {
      const Kind* k = &kinds[kind[i]];
      cursor += k->lead + 1;
      if (mode == SPREAD_V) cursor = (cursor + k->extent - 1) / k->extent * k->extent;
      absolute[i] = cursor;
      cursor += s->counts[i] * k->extent + 1;
    }
    int unit = mode == SPREAD_V && n > 0 ? kinds[kind[0]].extent : 1;
    s->shift = cursor / 2 / unit * unit;
    for (int i = 0; i < n; ++i) {
      s->at[i] = absolute[i] - s->shift;
      s->displs[i] = s->at[i] / unit;
      s->bytes[i] = s->at[i] * (int)sizeof(int);
      s->abytes[i] = s->bytes[i];
    }
  }
  s->ints = cursor + 4;
}

static int* pointer(Side* s) {
  return s->data + s->shift;
}

/* Where int j of block i lies in data[]. */
static int position(const Side* s, int i, int j) {
  const Kind* k = &kinds[s->kind[i]];
  return s->shift + s->at[i] + j / k->ipi * k->extent + k->offsets[j % k->ipi];
}

/* A send side: values in the blocks, GARBAGE in the holes; it must stay as it is. */
static void as_send(Side* s) {
  for (int p = 0; p < s->ints; ++p) s->data[p] = GARBAGE;
  for (int i = 0; i < s->n; ++i)
    for (int j = 0; j < s->len[i]; ++j) s->data[position(s, i, j)] = s->base[i] + j;
  memcpy(s->want, s->data, sizeof s->data);
}

/* A receive side: the sentinel everywhere; the values are wanted in the blocks. */
static void as_recv(Side* s) {
  for (int p = 0; p < s->ints; ++p) s->data[p] = s->want[p] = SENTINEL;
  for (int i = 0; i < s->n; ++i) {
    if (s->base[i] == NOTHING) continue;
    for (int j = 0; j < s->len[i]; ++j) s->want[position(s, i, j)] = s->base[i] + j;
  }
}

/* Block i of a receive buffer holds values from `base` before the call (in place). */
static void preload(Side* s, int i, int base) {
  for (int j = 0; j < s->len[i]; ++j) s->data[position(s, i, j)] = base + j;
}

static void check_sides(const char* call, int sk, int rk, int nb) {
  char what[160];
  snprintf(what, sizeof what, "%s%s %s -> %s round %d: send buffer", form_prefix[nb], call,
           kinds[sk].name, kinds[rk].name, delta / 10);
  CHECK_ARRAY(what, S.data, S.want, S.ints);
  snprintf(what, sizeof what, "%s%s %s -> %s round %d: receive buffer", form_prefix[nb], call,
           kinds[sk].name, kinds[rk].name, delta / 10);
  CHECK_ARRAY(what, R.data, R.want, R.ints);
}

/* The data from rank `src` to `dst` (or to neighbour slot dst): values from value(src, dst). */
static int value(int src, int dst) {
  return 1 + src * 10000 + dst * 100 + delta;
}
/* Ints from src to dst, even (whole items of every kind), zero for some pairs. */
static int length(int src, int dst, int symmetric) {
  return 2 * ((src + (symmetric ? 1 : 2) * dst + 1) % 3);
}

/* Completes a non-blocking call; starts and completes a persistent one. */
static void finish_call(int nb, MPI_Request* request) {
  if (nb == NONBLOCKING) CHECK_MPI(MPI_Wait(request, MPI_STATUS_IGNORE));
  if (nb == PERSISTENT) {
    CHECK_MPI(MPI_Start(&persistent));
    CHECK_MPI(MPI_Wait(&persistent, MPI_STATUS_IGNORE));
  }
}

static void send_own(int kind, int len, int base) {
  layout(&S, 1, &kind, &len, &base, CONSECUTIVE);
  as_send(&S);
}

/* The receive side of one block per rank, from every rank `src`: length(src, me) ints. */
static void recv_all(int kind, int me, int symmetric, enum Mode mode, int from_all) {
  int k[MAXP] = {0}, len[MAXP] = {0}, base[MAXP] = {0};
  for (int p = 0; p < size; ++p) {
    k[p] = kind;
    len[p] = from_all ? length(p, 0, 0) : length(p, me, symmetric);
    base[p] = value(p, from_all ? 0 : me);
  }
  layout(&R, size, k, len, base, mode);
  as_recv(&R);
}

static void test_gatherv(int sk, int rk, int nb, int in_place) {
  int root = (sk + rk + nb) % size;
  send_own(sk, length(rank, root, 0), value(rank, root));
  MPI_Request request;
  if (rank == root) {
    recv_all(rk, root, 0, SPREAD_V, 0);
    if (in_place) preload(&R, root, value(root, root));
  } else {
    memset(&R, 0, sizeof R);
  }
  const void* send = in_place && rank == root ? MPI_IN_PLACE : (const void*)pointer(&S);
  if (nb == PERSISTENT && persistent == MPI_REQUEST_NULL)
    CHECK_MPI(MPI_Gatherv_init(send, S.counts[0], S.types[0], pointer(&R), R.counts, R.displs,
                               kinds[rk].type, root, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent));
  else if (nb == NONBLOCKING)
    CHECK_MPI(MPI_Igatherv(send, S.counts[0], S.types[0], pointer(&R), R.counts, R.displs,
                           kinds[rk].type, root, MPI_COMM_WORLD, &request));
  else if (nb == BLOCKING)
    CHECK_MPI(MPI_Gatherv(send, S.counts[0], S.types[0], pointer(&R), R.counts, R.displs,
                          kinds[rk].type, root, MPI_COMM_WORLD));
  finish_call(nb, &request);
  check_sides(in_place ? "Gatherv(IN_PLACE)" : "Gatherv", sk, rk, nb);
}

static void test_scatterv(int sk, int rk, int nb, int in_place) {
  int root = (sk + 2 * rk + nb) % size;
  int own = length(root, rank, 0);
  if (rank == root) {
    int k[MAXP] = {0}, len[MAXP] = {0}, base[MAXP] = {0};
    for (int p = 0; p < size; ++p) {
      k[p] = sk;
      len[p] = length(root, p, 0);
      base[p] = value(root, p);
    }
    layout(&S, size, k, len, base, SPREAD_V);
    as_send(&S);
  } else {
    memset(&S, 0, sizeof S);
    S.types[0] = kinds[sk].type;
  }
  int base = value(root, rank);
  layout(&R, 1, &rk, &own, &base, CONSECUTIVE);
  as_recv(&R);
  void* recv = pointer(&R);
  if (in_place && rank == root) {
    recv = MPI_IN_PLACE;
    memcpy(R.want, R.data, sizeof R.data); /* nothing is received */
  }
  MPI_Request request;
  if (nb == PERSISTENT && persistent == MPI_REQUEST_NULL)
    CHECK_MPI(MPI_Scatterv_init(pointer(&S), S.counts, S.displs, S.types[0], recv, R.counts[0],
                                kinds[rk].type, root, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent));
  else if (nb == NONBLOCKING)
    CHECK_MPI(MPI_Iscatterv(pointer(&S), S.counts, S.displs, S.types[0], recv, R.counts[0],
                            kinds[rk].type, root, MPI_COMM_WORLD, &request));
  else if (nb == BLOCKING)
    CHECK_MPI(MPI_Scatterv(pointer(&S), S.counts, S.displs, S.types[0], recv, R.counts[0],
                           kinds[rk].type, root, MPI_COMM_WORLD));
  finish_call(nb, &request);
  check_sides(in_place ? "Scatterv(IN_PLACE)" : "Scatterv", sk, rk, nb);
}

static void test_allgatherv(int sk, int rk, int nb, int in_place) {
  send_own(sk, length(rank, 0, 0), value(rank, 0));
  recv_all(rk, rank, 0, SPREAD_V, 1);
  if (in_place) preload(&R, rank, value(rank, 0));
  const void* send = in_place ? MPI_IN_PLACE : (const void*)pointer(&S);
  MPI_Request request;
  if (nb == PERSISTENT && persistent == MPI_REQUEST_NULL)
    CHECK_MPI(MPI_Allgatherv_init(send, S.counts[0], S.types[0], pointer(&R), R.counts, R.displs,
                                  kinds[rk].type, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent));
  else if (nb == NONBLOCKING)
    CHECK_MPI(MPI_Iallgatherv(send, S.counts[0], S.types[0], pointer(&R), R.counts, R.displs,
                              kinds[rk].type, MPI_COMM_WORLD, &request));
  else if (nb == BLOCKING)
    CHECK_MPI(MPI_Allgatherv(send, S.counts[0], S.types[0], pointer(&R), R.counts, R.displs,
                             kinds[rk].type, MPI_COMM_WORLD));
  finish_call(nb, &request);
  check_sides(in_place ? "Allgatherv(IN_PLACE)" : "Allgatherv", sk, rk, nb);
}

/* Alltoallv (`w` 0) or alltoallw (`w` 1: kinds per peer, varied from sk and rk). */
static void test_alltoall(int w, int sk, int rk, int nb, int in_place) {
  int skind[MAXP] = {0}, rkind[MAXP] = {0}, slen[MAXP] = {0}, rlen[MAXP] = {0};
  int sbase[MAXP] = {0}, rbase[MAXP] = {0};
  for (int p = 0; p < size; ++p) {
    skind[p] = w ? (sk + rank + p) % KINDS : sk;
    rkind[p] = w ? (rk + 2 * rank + p) % KINDS : rk;
    slen[p] = length(rank, p, in_place);
    sbase[p] = value(rank, p);
    rlen[p] = length(p, rank, in_place);
    rbase[p] = value(p, rank);
  }
  enum Mode mode = w ? SPREAD_W : SPREAD_V;
  layout(&R, size, rkind, rlen, rbase, mode);
  as_recv(&R);
  if (in_place) {
    memset(&S, 0, sizeof S);
    for (int p = 0; p < size; ++p) preload(&R, p, sbase[p]);
  } else {
    layout(&S, size, skind, slen, sbase, mode);
    as_send(&S);
  }
  const void* send = in_place ? MPI_IN_PLACE : (const void*)pointer(&S);
  MPI_Request request;
  const char* name;
  if (w) {
    name = in_place ? "Alltoallw(IN_PLACE)" : "Alltoallw";
    if (nb == PERSISTENT && persistent == MPI_REQUEST_NULL)
      CHECK_MPI(MPI_Alltoallw_init(send, S.counts, S.bytes, S.types, pointer(&R), R.counts, R.bytes,
                                   R.types, MPI_COMM_WORLD, MPI_INFO_NULL, &persistent));
    else if (nb == NONBLOCKING)
      CHECK_MPI(MPI_Ialltoallw(send, S.counts, S.bytes, S.types, pointer(&R), R.counts, R.bytes,
                               R.types, MPI_COMM_WORLD, &request));
    else if (nb == BLOCKING)
      CHECK_MPI(MPI_Alltoallw(send, S.counts, S.bytes, S.types, pointer(&R), R.counts, R.bytes,
                              R.types, MPI_COMM_WORLD));
  } else {
    name = in_place ? "Alltoallv(IN_PLACE)" : "Alltoallv";
    if (nb == PERSISTENT && persistent == MPI_REQUEST_NULL)
      CHECK_MPI(MPI_Alltoallv_init(send, S.counts, S.displs, kinds[sk].type, pointer(&R), R.counts,
                                   R.displs, kinds[rk].type, MPI_COMM_WORLD, MPI_INFO_NULL,
                                   &persistent));
    else if (nb == NONBLOCKING)
      CHECK_MPI(MPI_Ialltoallv(send, S.counts, S.displs, kinds[sk].type, pointer(&R), R.counts,
                               R.displs, kinds[rk].type, MPI_COMM_WORLD, &request));
    else if (nb == BLOCKING)
      CHECK_MPI(MPI_Alltoallv(send, S.counts, S.displs, kinds[sk].type, pointer(&R), R.counts,
                              R.displs, kinds[rk].type, MPI_COMM_WORLD));
  }
  finish_call(nb, &request);
  check_sides(name, sk, rk, nb);
}

/* Neighborhood collectives on a 1-D cartesian ring: neighbour 0 is the left (-1) one, 1 the
 * right; what this rank receives in block i, neighbour i sent in its block 1 - i. */
enum { ALLGATHER, ALLGATHERV, ALLTOALL, ALLTOALLV, ALLTOALLW, NEIGHBOR_FORMS };
static const char* neighbor_names[NEIGHBOR_FORMS] = {"Neighbor_allgather", "Neighbor_allgatherv",
                                                     "Neighbor_alltoall", "Neighbor_alltoallv",
                                                     "Neighbor_alltoallw"};
enum { UNIFORM = 4 }; /* ints per block of the non-v forms */

/* The persistent form of a neighborhood collective on the sides S and R. */
static int init_neighbor(int form, MPI_Comm ring, MPI_Datatype st, MPI_Datatype rt) {
  void* s = pointer(&S);
  void* r = pointer(&R);
  MPI_Info no = MPI_INFO_NULL;
  switch (form) {
    case ALLGATHER:
      return MPI_Neighbor_allgather_init(s, S.counts[0], st, r, R.counts[0], rt, ring, no,
                                         &persistent);
    case ALLGATHERV:
      return MPI_Neighbor_allgatherv_init(s, S.counts[0], st, r, R.counts, R.displs, rt, ring, no,
                                          &persistent);
    case ALLTOALL:
      return MPI_Neighbor_alltoall_init(s, S.counts[0], st, r, R.counts[0], rt, ring, no,
                                        &persistent);
    case ALLTOALLV:
      return MPI_Neighbor_alltoallv_init(s, S.counts, S.displs, st, r, R.counts, R.displs, rt, ring,
                                         no, &persistent);
    default:
      return MPI_Neighbor_alltoallw_init(s, S.counts, S.abytes, S.types, r, R.counts, R.abytes,
                                         R.types, ring, no, &persistent);
  }
}

static void test_neighbor(MPI_Comm ring, const int* peer, int form, int sk, int rk, int nb) {
  int skind[2], rkind[2], slen[2], rlen[2], sbase[2], rbase[2];
  int gather = form == ALLGATHER || form == ALLGATHERV;
  for (int i = 0; i < 2; ++i) {
    skind[i] = form == ALLTOALLW ? (sk + rank + i) % KINDS : sk;
    rkind[i] = form == ALLTOALLW ? (rk + i) % KINDS : rk;
    int from = peer[i];
    switch (form) {
      case ALLGATHER:
      case ALLTOALL:
        slen[i] = rlen[i] = UNIFORM;
        break;
      case ALLGATHERV:
        slen[i] = length(rank, 0, 0);
        rlen[i] = from < 0 ? 2 : length(from, 0, 0);
        break;
      default:
        slen[i] = length(rank, i, 0);
        rlen[i] = from < 0 ? 2 : length(from, 1 - i, 0);
    }
    sbase[i] = value(rank, gather ? 9 : i);
    rbase[i] = from < 0 ? NOTHING : value(from, gather ? 9 : 1 - i);
  }
  /* The neighbour's kind for its block 1 - i only matters through its length, equal here. */
  enum Mode mode = form == ALLTOALLW                       ? SPREAD_W
                   : form == ALLGATHER || form == ALLTOALL ? CONSECUTIVE
                                                           : SPREAD_V;
  layout(&S, gather ? 1 : 2, skind, slen, sbase, gather ? CONSECUTIVE : mode);
  as_send(&S);
  layout(&R, 2, rkind, rlen, rbase, mode);
  as_recv(&R);
  void* s = pointer(&S);
  void* r = pointer(&R);
  MPI_Request request;
  MPI_Datatype st = kinds[sk].type, rt = kinds[rk].type;
  int rc = MPI_SUCCESS;
  if (nb == PERSISTENT) {
    if (persistent == MPI_REQUEST_NULL) rc = init_neighbor(form, ring, st, rt);
  } else
    switch (form) {
      case ALLGATHER:
        rc = nb ? MPI_Ineighbor_allgather(s, S.counts[0], st, r, R.counts[0], rt, ring, &request)
                : MPI_Neighbor_allgather(s, S.counts[0], st, r, R.counts[0], rt, ring);
        break;
      case ALLGATHERV:
        rc = nb ? MPI_Ineighbor_allgatherv(s, S.counts[0], st, r, R.counts, R.displs, rt, ring,
                                           &request)
                : MPI_Neighbor_allgatherv(s, S.counts[0], st, r, R.counts, R.displs, rt, ring);
        break;
      case ALLTOALL:
        rc = nb ? MPI_Ineighbor_alltoall(s, S.counts[0], st, r, R.counts[0], rt, ring, &request)
                : MPI_Neighbor_alltoall(s, S.counts[0], st, r, R.counts[0], rt, ring);
        break;
      case ALLTOALLV:
        rc =
            nb ? MPI_Ineighbor_alltoallv(s, S.counts, S.displs, st, r, R.counts, R.displs, rt, ring,
                                         &request)
               : MPI_Neighbor_alltoallv(s, S.counts, S.displs, st, r, R.counts, R.displs, rt, ring);
        break;
      default:
        rc = nb ? MPI_Ineighbor_alltoallw(s, S.counts, S.abytes, S.types, r, R.counts, R.abytes,
                                          R.types, ring, &request)
                : MPI_Neighbor_alltoallw(s, S.counts, S.abytes, S.types, r, R.counts, R.abytes,
                                         R.types, ring);
    }
  CHECK(rc == MPI_SUCCESS);
  finish_call(nb, &request);
  check_sides(neighbor_names[form], sk, rk, nb);
}

/* The pairs of (send kind, receive kind): holed on both sides, mixed, contiguous. */
static const int pairs[][2] = {{VEC, VEC},    {GAP, GAP}, {NEG, NEG},      {CONTIG, VEC},
                               {VEC, CONTIG}, {GAP, NEG}, {CONTIG, CONTIG}};
enum { PAIRS = sizeof pairs / sizeof pairs[0] };

/* Both rounds of a persistent call (the first one makes it), then frees it. */
#define PERSISTENT_ROUNDS(test)                     \
  do {                                              \
    for (delta = 0; delta <= 10; delta += 10) test; \
    delta = 0;                                      \
    CHECK_MPI(MPI_Request_free(&persistent));       \
    CHECK(persistent == MPI_REQUEST_NULL);          \
  } while (0)

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size > MAXP) MPI_Abort(MPI_COMM_WORLD, 2);
  make_kinds();
  for (int q = 0; q < PAIRS; ++q) {
    int sk = pairs[q][0], rk = pairs[q][1];
    for (int nb = 0; nb < 2; ++nb) {
      for (int in_place = 0; in_place < 2; ++in_place) {
        test_gatherv(sk, rk, nb, in_place);
        test_scatterv(sk, rk, nb, in_place);
        test_allgatherv(sk, rk, nb, in_place);
        test_alltoall(0, sk, rk, nb, in_place);
        test_alltoall(1, sk, rk, nb, in_place);
      }
    }
    for (int in_place = 0; in_place < 2; ++in_place) {
      PERSISTENT_ROUNDS(test_gatherv(sk, rk, PERSISTENT, in_place));
      PERSISTENT_ROUNDS(test_scatterv(sk, rk, PERSISTENT, in_place));
      PERSISTENT_ROUNDS(test_allgatherv(sk, rk, PERSISTENT, in_place));
      PERSISTENT_ROUNDS(test_alltoall(0, sk, rk, PERSISTENT, in_place));
      PERSISTENT_ROUNDS(test_alltoall(1, sk, rk, PERSISTENT, in_place));
    }
  }
  for (int periodic = 0; periodic < 2; ++periodic) {
    MPI_Comm ring;
    int dims[1] = {size}, periods[1] = {periodic}, peer[2];
    CHECK_MPI(MPI_Cart_create(MPI_COMM_WORLD, 1, dims, periods, 0, &ring));
    CHECK_MPI(MPI_Cart_shift(ring, 0, 1, &peer[0], &peer[1]));
    for (int q = 0; q < PAIRS; ++q)
      for (int form = 0; form < NEIGHBOR_FORMS; ++form) {
        for (int nb = 0; nb < 2; ++nb)
          test_neighbor(ring, peer, form, pairs[q][0], pairs[q][1], nb);
        PERSISTENT_ROUNDS(test_neighbor(ring, peer, form, pairs[q][0], pairs[q][1], PERSISTENT));
      }
    MPI_Comm_free(&ring);
  }
  for (int k = VEC; k < KINDS; ++k) MPI_Type_free(&kinds[k].type);
  MPI_Finalize();
  return finish_checks("shim_holes_collectives");
}
