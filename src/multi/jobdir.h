/* jobdir.h - whole profiler output directories as the ranks of a job.
 *
 * tt_rankset_expand() (rankset.h) asks here first what a directory holds:
 *   Ascend   rank trees {worker}_{ts}_ascend_ms/ or *_ascend_pt/, each
 *            with profiler_info_{rank}.json and ASCEND_PROFILER_OUTPUT/
 *            (also the argument being one such tree, or its
 *            ASCEND_PROFILER_OUTPUT): one rank per tree, its file the
 *            tree's trace_view.json, its rank the profiler_info's rank_id
 *            (decode/ascend_tree.h); the tree's other tables are side
 *            files, not ranks.
 *   Kineto   tensorboard_trace_handler captures {worker}.{ts}.pt.trace.json
 *            [.gz]: a worker with several captures is one rank, named by
 *            the pattern decode/captures.h loads as one trace.
 *   MindSpore an older cluster directory holding step_trace_raw_N_
 *            detail_time.csv files: those are the ranks, its other files
 *            (hccl_raw_N.csv, flops_summary_N.json, ...) side files
 *            (jobdir_ms.c).
 *   nsys     SQLite exports name_N.sqlite (the %q{PMI_RANK} recipe): the
 *            rank from the name (tt_jobdir_rank), or from an NVTX "MPI
 *            Rank N" thread name inside (the decoder's metadata rank).
 * Any other directory is every trace file in it, as before.
 *
 * Library code: no printing. Lists are malloc'd, the caller's.
 */
#ifndef TT_MULTI_JOBDIR_H
#define TT_MULTI_JOBDIR_H

#include <stddef.h>
#include <stdint.h>

#include "util/error.h"

/* The ranks' files of dir when it is an Ascend job (or one rank tree):
 * 1 with *files (trace_view.json paths, in natural order of the trees)
 * and *n set; 0 when dir is no Ascend layout; -1 with err naming the file
 * when a tree lacks its timeline or profiler_info, a profiler_info is
 * malformed, or two trees claim one rank. */
int tt_jobdir_ascend(const char *dir, char ***files, size_t *n, tt_error *err);

/* The ranks' files of dir when it is an older MindSpore cluster directory
 * (it holds step_trace_raw_N_detail_time.csv files the step-trace decoder
 * recognises): 1 with *files (those, in natural order) and *n set; 0 when
 * it holds none; -1 (out of memory) with err set. */
int tt_jobdir_mindspore(const char *dir, char ***files, size_t *n, tt_error *err);

/* Collapse the captures among files[0..*n) (one directory's trace files,
 * in natural order): each worker with several captures becomes one entry,
 * its pattern, where its first capture was; the others are freed. 0, or
 * -1 when out of memory (err set; the list is then unchanged). */
int tt_jobdir_captures(char **files, size_t *n, tt_error *err);

/* Rank a job layout gives a file without loading it: an Ascend
 * trace_view.json's tree rank, else -1. */
int64_t tt_jobdir_tree_rank(const char *path);

/* Rank of an nsys rank set's export from its name, "name_N.sqlite" or
 * "name-N.sqlite": N, else -1. */
int64_t tt_jobdir_sqlite_rank(const char *base);

#endif
