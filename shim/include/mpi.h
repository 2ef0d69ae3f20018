/* mpi.h: the subset of MPI that Halyard's MPI shim (libhalyard_mpi) provides.
 *
 * Programs that use Bcast/Allreduce and the calls around them compile against this header
 * with hmpicc / hmpicxx and run under hlaunch on Halyard's runtime and collectives. Only what
 * is declared here exists: a call outside the subset fails to compile or link, never silently
 * does nothing. docs/mpi-shim.md lists the subset and its semantics.
 *
 * Handles are plain ints. The top byte says what kind of object a handle names (communicator,
 * datatype, op, error handler, request) and the rest is an index, so a handle of the wrong kind
 * or an uninitialised zero is recognised and reported instead of being misread.
 */
#ifndef HALYARD_MPI_H
#define HALYARD_MPI_H

#ifdef __cplusplus
extern "C" {
#endif

#define MPI_VERSION 3
#define MPI_SUBVERSION 1

typedef int MPI_Comm;
typedef int MPI_Datatype;
typedef int MPI_Op;
typedef int MPI_Errhandler;
typedef int MPI_Request;
typedef int MPI_Group;
typedef int MPI_Info;
typedef int MPI_Message;

/* Address-sized and file-offset-sized integers (LP64: long is 64 bits, checked when the shim is
 * built). */
typedef long MPI_Aint;
typedef long long MPI_Offset;
typedef long long MPI_Count;

/* What a completed receive (or request) reports. MPI_Get_count reads the private byte count. */
typedef struct MPI_Status {
  int MPI_SOURCE;
  int MPI_TAG;
  int MPI_ERROR;
  long long halyard_received_bytes;
} MPI_Status;

/* Handle kinds (top byte); index 0 of every kind is its null handle. */
#define HALYARD_MPI_KIND_COMM 0x11000000
#define HALYARD_MPI_KIND_DATATYPE 0x12000000
#define HALYARD_MPI_KIND_OP 0x13000000
#define HALYARD_MPI_KIND_ERRHANDLER 0x14000000
#define HALYARD_MPI_KIND_REQUEST 0x15000000
#define HALYARD_MPI_KIND_GROUP 0x16000000
#define HALYARD_MPI_KIND_INFO 0x17000000
#define HALYARD_MPI_KIND_MESSAGE 0x18000000
#define HALYARD_MPI_KIND_WIN 0x19000000

#define MPI_COMM_NULL (HALYARD_MPI_KIND_COMM | 0)
#define MPI_COMM_WORLD (HALYARD_MPI_KIND_COMM | 1)
#define MPI_COMM_SELF (HALYARD_MPI_KIND_COMM | 2)

#define MPI_DATATYPE_NULL (HALYARD_MPI_KIND_DATATYPE | 0)
#define MPI_CHAR (HALYARD_MPI_KIND_DATATYPE | 1)
#define MPI_SIGNED_CHAR (HALYARD_MPI_KIND_DATATYPE | 2)
#define MPI_UNSIGNED_CHAR (HALYARD_MPI_KIND_DATATYPE | 3)
#define MPI_BYTE (HALYARD_MPI_KIND_DATATYPE | 4)
#define MPI_SHORT (HALYARD_MPI_KIND_DATATYPE | 5)
#define MPI_UNSIGNED_SHORT (HALYARD_MPI_KIND_DATATYPE | 6)
#define MPI_INT (HALYARD_MPI_KIND_DATATYPE | 7)
#define MPI_UNSIGNED (HALYARD_MPI_KIND_DATATYPE | 8)
#define MPI_LONG (HALYARD_MPI_KIND_DATATYPE | 9)
#define MPI_UNSIGNED_LONG (HALYARD_MPI_KIND_DATATYPE | 10)
#define MPI_LONG_LONG (HALYARD_MPI_KIND_DATATYPE | 11)
#define MPI_LONG_LONG_INT MPI_LONG_LONG
#define MPI_UNSIGNED_LONG_LONG (HALYARD_MPI_KIND_DATATYPE | 12)
#define MPI_FLOAT (HALYARD_MPI_KIND_DATATYPE | 13)
#define MPI_DOUBLE (HALYARD_MPI_KIND_DATATYPE | 14)
#define MPI_INT8_T (HALYARD_MPI_KIND_DATATYPE | 15)
#define MPI_INT16_T (HALYARD_MPI_KIND_DATATYPE | 16)
#define MPI_INT32_T (HALYARD_MPI_KIND_DATATYPE | 17)
#define MPI_INT64_T (HALYARD_MPI_KIND_DATATYPE | 18)
#define MPI_UINT8_T (HALYARD_MPI_KIND_DATATYPE | 19)
#define MPI_UINT16_T (HALYARD_MPI_KIND_DATATYPE | 20)
#define MPI_UINT32_T (HALYARD_MPI_KIND_DATATYPE | 21)
#define MPI_UINT64_T (HALYARD_MPI_KIND_DATATYPE | 22)
#define MPI_C_BOOL (HALYARD_MPI_KIND_DATATYPE | 23)

#define MPI_OP_NULL (HALYARD_MPI_KIND_OP | 0)
#define MPI_SUM (HALYARD_MPI_KIND_OP | 1)
#define MPI_PROD (HALYARD_MPI_KIND_OP | 2)
#define MPI_MIN (HALYARD_MPI_KIND_OP | 3)
#define MPI_MAX (HALYARD_MPI_KIND_OP | 4)
#define MPI_LAND (HALYARD_MPI_KIND_OP | 5)
#define MPI_LOR (HALYARD_MPI_KIND_OP | 6)
#define MPI_LXOR (HALYARD_MPI_KIND_OP | 7)
#define MPI_BAND (HALYARD_MPI_KIND_OP | 8)
#define MPI_BOR (HALYARD_MPI_KIND_OP | 9)
#define MPI_BXOR (HALYARD_MPI_KIND_OP | 10)

#define MPI_ERRHANDLER_NULL (HALYARD_MPI_KIND_ERRHANDLER | 0)
#define MPI_ERRORS_ARE_FATAL (HALYARD_MPI_KIND_ERRHANDLER | 1)
#define MPI_ERRORS_RETURN (HALYARD_MPI_KIND_ERRHANDLER | 2)

#define MPI_REQUEST_NULL (HALYARD_MPI_KIND_REQUEST | 0)

/* Pointer sentinels, spelled with C++ casts in C++ so that -Wold-style-cast stays quiet.
 * MPI_IN_PLACE is the same address as halyard::kInPlace. */
#ifdef __cplusplus
#define MPI_IN_PLACE (reinterpret_cast<void*>(1))
#define MPI_STATUS_IGNORE (static_cast<MPI_Status*>(nullptr))
#else
#define MPI_IN_PLACE ((void*)1)
#define MPI_STATUS_IGNORE ((MPI_Status*)0)
#endif
#define MPI_STATUSES_IGNORE MPI_STATUS_IGNORE

#define MPI_ANY_SOURCE (-1)
#define MPI_ANY_TAG (-1)
#define MPI_UNDEFINED (-32766)

#define MPI_MAX_PROCESSOR_NAME 256
#define MPI_MAX_ERROR_STRING 256

/* Thread support: the shim provides at most MPI_THREAD_FUNNELED. */
#define MPI_THREAD_SINGLE 0
#define MPI_THREAD_FUNNELED 1
#define MPI_THREAD_SERIALIZED 2
#define MPI_THREAD_MULTIPLE 3

/* Error classes (the values every call returns under MPI_ERRORS_RETURN). */
#define MPI_SUCCESS 0
#define MPI_ERR_BUFFER 1
#define MPI_ERR_COUNT 2
#define MPI_ERR_TYPE 3
#define MPI_ERR_TAG 4
#define MPI_ERR_COMM 5
#define MPI_ERR_RANK 6
#define MPI_ERR_REQUEST 7
#define MPI_ERR_ROOT 8
#define MPI_ERR_OP 9
#define MPI_ERR_ARG 10
#define MPI_ERR_TRUNCATE 11
#define MPI_ERR_OTHER 12
#define MPI_ERR_INTERN 13
#define MPI_ERR_IN_STATUS 14
#define MPI_ERR_PENDING 15
#define MPI_ERR_UNSUPPORTED_OPERATION 16
#define MPI_ERR_PROC_FAILED 17
#define MPI_ERR_UNKNOWN 18
/* The remaining classes of MPI-3.1 (values 0-18 above keep their numbers). */
#define MPI_ERR_GROUP 19
#define MPI_ERR_TOPOLOGY 20
#define MPI_ERR_DIMS 21
#define MPI_ERR_KEYVAL 22
#define MPI_ERR_NO_MEM 23
#define MPI_ERR_BASE 24
#define MPI_ERR_INFO_KEY 25
#define MPI_ERR_INFO_VALUE 26
#define MPI_ERR_INFO_NOKEY 27
#define MPI_ERR_INFO 28
#define MPI_ERR_SPAWN 29
#define MPI_ERR_PORT 30
#define MPI_ERR_SERVICE 31
#define MPI_ERR_NAME 32
#define MPI_ERR_WIN 33
#define MPI_ERR_SIZE 34
#define MPI_ERR_DISP 35
#define MPI_ERR_LOCKTYPE 36
#define MPI_ERR_ASSERT 37
#define MPI_ERR_RMA_CONFLICT 38
#define MPI_ERR_RMA_SYNC 39
#define MPI_ERR_RMA_RANGE 40
#define MPI_ERR_RMA_ATTACH 41
#define MPI_ERR_RMA_SHARED 42
#define MPI_ERR_RMA_FLAVOR 43
#define MPI_ERR_FILE 44
#define MPI_ERR_NOT_SAME 45
#define MPI_ERR_AMODE 46
#define MPI_ERR_UNSUPPORTED_DATAREP 47
#define MPI_ERR_NO_SUCH_FILE 48
#define MPI_ERR_FILE_EXISTS 49
#define MPI_ERR_BAD_FILE 50
#define MPI_ERR_ACCESS 51
#define MPI_ERR_NO_SPACE 52
#define MPI_ERR_QUOTA 53
#define MPI_ERR_READ_ONLY 54
#define MPI_ERR_FILE_IN_USE 55
#define MPI_ERR_DUP_DATAREP 56
#define MPI_ERR_CONVERSION 57
#define MPI_ERR_IO 58
#define MPI_ERR_LASTCODE 58

/* Environment */
int MPI_Init(int* argc, char*** argv);
int MPI_Init_thread(int* argc, char*** argv, int required, int* provided);
int MPI_Initialized(int* flag);
int MPI_Finalize(void);
int MPI_Finalized(int* flag);
int MPI_Abort(MPI_Comm comm, int errorcode);
double MPI_Wtime(void);
double MPI_Wtick(void);
int MPI_Get_processor_name(char* name, int* resultlen);
int MPI_Get_version(int* version, int* subversion);
int MPI_Error_string(int errorcode, char* string, int* resultlen);
int MPI_Error_class(int errorcode, int* errorclass);
int MPI_Type_size(MPI_Datatype datatype, int* size);
int MPI_Get_count(const MPI_Status* status, MPI_Datatype datatype, int* count);

/* Communicators and error handlers */
int MPI_Comm_rank(MPI_Comm comm, int* rank);
int MPI_Comm_size(MPI_Comm comm, int* size);
int MPI_Comm_dup(MPI_Comm comm, MPI_Comm* newcomm);
int MPI_Comm_split(MPI_Comm comm, int color, int key, MPI_Comm* newcomm);
int MPI_Comm_free(MPI_Comm* comm);
int MPI_Comm_set_errhandler(MPI_Comm comm, MPI_Errhandler errhandler);
int MPI_Comm_get_errhandler(MPI_Comm comm, MPI_Errhandler* errhandler);

/* Collectives */
int MPI_Barrier(MPI_Comm comm);
int MPI_Bcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm);
int MPI_Reduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               int root, MPI_Comm comm);
int MPI_Allreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                  MPI_Comm comm);
int MPI_Allgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Gather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
               int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Scatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm);
int MPI_Alltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ibarrier(MPI_Comm comm, MPI_Request* request);
int MPI_Ibcast(void* buffer, int count, MPI_Datatype datatype, int root, MPI_Comm comm,
               MPI_Request* request);
int MPI_Ireduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                int root, MPI_Comm comm, MPI_Request* request);
int MPI_Iallreduce(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                   MPI_Comm comm, MPI_Request* request);
int MPI_Iallgather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);
int MPI_Ialltoall(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                  int recvcount, MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);

/* Point-to-point */
int MPI_Send(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm);
int MPI_Recv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
             MPI_Status* status);
int MPI_Isend(const void* buf, int count, MPI_Datatype datatype, int dest, int tag, MPI_Comm comm,
              MPI_Request* request);
int MPI_Irecv(void* buf, int count, MPI_Datatype datatype, int source, int tag, MPI_Comm comm,
              MPI_Request* request);
int MPI_Sendrecv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, int dest, int sendtag,
                 void* recvbuf, int recvcount, MPI_Datatype recvtype, int source, int recvtag,
                 MPI_Comm comm, MPI_Status* status);

/* Completion */
int MPI_Wait(MPI_Request* request, MPI_Status* status);
int MPI_Waitall(int count, MPI_Request requests[], MPI_Status statuses[]);
int MPI_Test(MPI_Request* request, int* flag, MPI_Status* status);
int MPI_Testall(int count, MPI_Request requests[], int* flag, MPI_Status statuses[]);

/* Datatypes: derived types, decoding, packing, the pair types (issue 25) */

/* User-defined reductions (issue 25) */

/* Further collectives: v-variants, reduce-scatter, scans (issue 25) */
int MPI_Igather(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                MPI_Request* request);
int MPI_Iscatter(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 int recvcount, MPI_Datatype recvtype, int root, MPI_Comm comm,
                 MPI_Request* request);
int MPI_Gatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                MPI_Comm comm);
int MPI_Igatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                 const int recvcounts[], const int displs[], MPI_Datatype recvtype, int root,
                 MPI_Comm comm, MPI_Request* request);
int MPI_Scatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                 MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                 int root, MPI_Comm comm);
int MPI_Iscatterv(const void* sendbuf, const int sendcounts[], const int displs[],
                  MPI_Datatype sendtype, void* recvbuf, int recvcount, MPI_Datatype recvtype,
                  int root, MPI_Comm comm, MPI_Request* request);
int MPI_Allgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                   const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                   MPI_Comm comm);
int MPI_Iallgatherv(const void* sendbuf, int sendcount, MPI_Datatype sendtype, void* recvbuf,
                    const int recvcounts[], const int displs[], MPI_Datatype recvtype,
                    MPI_Comm comm, MPI_Request* request);
int MPI_Alltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  MPI_Datatype sendtype, void* recvbuf, const int recvcounts[], const int rdispls[],
                  MPI_Datatype recvtype, MPI_Comm comm);
int MPI_Ialltoallv(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   MPI_Datatype sendtype, void* recvbuf, const int recvcounts[],
                   const int rdispls[], MPI_Datatype recvtype, MPI_Comm comm, MPI_Request* request);
int MPI_Alltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                  const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                  const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm);
int MPI_Ialltoallw(const void* sendbuf, const int sendcounts[], const int sdispls[],
                   const MPI_Datatype sendtypes[], void* recvbuf, const int recvcounts[],
                   const int rdispls[], const MPI_Datatype recvtypes[], MPI_Comm comm,
                   MPI_Request* request);
int MPI_Reduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                             MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter_block(const void* sendbuf, void* recvbuf, int recvcount,
                              MPI_Datatype datatype, MPI_Op op, MPI_Comm comm,
                              MPI_Request* request);
int MPI_Reduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                       MPI_Datatype datatype, MPI_Op op, MPI_Comm comm);
int MPI_Ireduce_scatter(const void* sendbuf, void* recvbuf, const int recvcounts[],
                        MPI_Datatype datatype, MPI_Op op, MPI_Comm comm, MPI_Request* request);
int MPI_Scan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
             MPI_Comm comm);
int MPI_Iscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
              MPI_Comm comm, MPI_Request* request);
int MPI_Exscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
               MPI_Comm comm);
int MPI_Iexscan(const void* sendbuf, void* recvbuf, int count, MPI_Datatype datatype, MPI_Op op,
                MPI_Comm comm, MPI_Request* request);
int MPI_Reduce_local(const void* inbuf, void* inoutbuf, int count, MPI_Datatype datatype,
                     MPI_Op op);

/* Persistent requests and further completion calls (issue 25) */

/* Further point-to-point: probes, send modes, cancel (issue 25) */

/* Groups, communicator creation, attributes, names, info (issue 25) */

/* Process topologies and neighborhood collectives (issue 25) */

/* Further environment: error handlers, memory, library version (issue 25) */

#ifdef __cplusplus
}
#endif

#endif /* HALYARD_MPI_H */
