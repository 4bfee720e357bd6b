// tlc-verify: what check 6's two files share. CheckSharedHazards.c walks a
// kernel and sees its shared-memory accesses one by one; Mbarrier.c orders
// the accesses of different roles (the warp-specialized producer and
// consumers) through the mbarrier phases they wait on and arrive at.
#ifndef TLC_VERIFY_HAZARDS_H
#define TLC_VERIFY_HAZARDS_H

#include "Verify.h"

typedef enum { ACC_READ, ACC_WRITE, ACC_ASYNC } AccKind;

typedef struct MbAcq MbAcq; // Mbarrier.c: what a role knows of each mbarrier

typedef struct Access {
  const TvExpr *site;
  const TvVar *buf;   // the view or array named
  const TvVar *space; // NULL: the bytes of tl_smem, which views share; else the static array
  AccKind kind;
  long long lo, hi;         // bytes of the space
  long long elo, ehi;       // elements of buf, for messages
  const char *stage;        // the stage expression's text, or NULL
  const char *what;         // "read", "write", "cp.async write", "read by 'tl_gemm_0'"
  const char *iter;         // the simulated loop counters' values, "" outside them
  const TvStmt *retired_by; // a completed cp.async write: the wait that completed it
  // Range.c's tv_thread_slot: thread t touches elements k * t + rest only.
  bool per_thread;
  long long slot_k, slot_g, slot_d;
  bool atomic; // an atomicAdd/Max/...: two atomics never race with each other
  // A half ((T*)&X[i])[k] of a vector store tlc splits in two: the text of
  // X[i]; the halves of one store are one statement's write (check_done).
  const char *vector_base;
  // Range.c's tv_residue_window, in bytes of the space: every byte touched
  // is in [rlo, rhi] modulo mod (0: no window).
  long long mod, rlo, rhi;
  // Range.c's tv_thread_values: thread t (of nthreads) touches bytes
  // [tstart[t], tstart[t] + width) of the space when truns[t] (NULL: not
  // known for every thread).
  long long nthreads, width, *tstart;
  bool *truns;
  // Mbarrier.c: the role (thread set) that made it, 0 before any split;
  // its event numbers in that role: issued at seq, completed at done_seq
  // (LLONG_MAX: never seen to complete, e.g. a wgmma read no wait retires).
  int role;
  long long seq, done_seq;
  TvLoc done_loc;
  // A TMA write completes with a phase of an mbarrier element, not in
  // program order.
  bool tma;
  const TvVar *bar;
  long long bar_elem, tma_bytes; // -1: unknown
  long long phase;               // set by Mbarrier.c
  // Mbarrier.c: the role's knowledge when the access was issued.
  long long *vc; // per role, the last event of that role ordered before it
  MbAcq *acq;    // per mbarrier element
  // Mbarrier.c's pair search: the position in the walk's order and in its
  // role's list.
  long long walk_index, role_pos;
} Access;

// "the wgmma read by 'tl_gemm_0' at 187:5 (stage 'k_5 % 3', elements [0, 4095], k_5 = 0)"
const char *hz_describe(const Access *a);

/* ---- Mbarrier.c ---- */
typedef struct MbModel MbModel;
MbModel *mb_new(TvProgram *p);
// One more event of `role` at `site`; its number.
long long mb_tick(MbModel *m, int role, TvLoc loc);
// A shared-memory access of a role other than 0 (a->role set): compared at
// mb_finish with the accesses of the other roles.
void mb_access(MbModel *m, Access *a);
// The mbarrier operations; elem, count, threads, tx and parity -1 when not
// known on this path (the model then assumes nothing from them).
void mb_init(MbModel *m, const TvExpr *site, const TvVar *bar, long long elem, long long count);
void mb_arrive(MbModel *m, int role, const TvExpr *site, const TvVar *bar, long long elem,
               long long threads, long long tx);
void mb_wait(MbModel *m, int role, const TvExpr *site, const TvVar *bar, long long elem,
             long long parity);
// Runs the roles against each other through the barriers' phases and
// reports every pair of accesses of different roles that nothing orders,
// and every phase whose expected bytes differ from its TMA loads'.
void mb_finish(MbModel *m, bool (*overlap)(const Access *, const Access *),
               void (*report)(void *ctx, const Access *a, const Access *b, const char *order),
               void *ctx);

#endif
