/* mindspore_hccl.h - the older MindSpore cluster communication file,
 * hccl_raw_{rank}.csv (MindSpore's HcclParser, MindInsight's cluster
 * input), read into the same tt_comm as Ascend's communication.json and
 * communication_matrix.json (decode/ascend_comm.h), so `report --kind
 * comm`, `--kind comm-matrix`, the slow-link rule and the matrix view
 * read either.
 *
 * The file has one row per step (and a last row, step "-", of averages
 * over the steps, which is skipped: the reports total the steps
 * themselves): step_num, communication_cost, wait_cost, link_info,
 * communication_operator_cost. The last column is a JSON object, per op
 * "stream_S_I_Name-opN": [step_num, transit ms, wait ms, links], links
 * {"SRC-DST": {"SDMA"|"RDMA": [time ms, size KB, bandwidth KB/s (, RDMA
 * wait ms)]}} with KB = 1000 bytes (the parser divides bytes by 1e3, and
 * every op link of the real files has bandwidth = size / time * 1000).
 *
 * The mapping: an op's Transit and Wait are its two costs; Elapse,
 * Synchronization and Idle are not in the file and stay empty (has_elapse
 * false), so does the start time. A link's size becomes MB (/ 1000, the
 * MB of communication_matrix.json is 10^6 bytes) and its bandwidth GB/s
 * (/ 10^6). Step "1" becomes "step1" like communication.json's keys; the
 * file names no op type and no group: both are "". The step's own
 * columns (communication_cost, wait_cost, link_info) are sums of its ops
 * and are not read (tests check the reports' totals against them).
 *
 * Library code: no printing. The tt_comm owns what is read into it.
 */
#ifndef TT_DECODE_MINDSPORE_HCCL_H
#define TT_DECODE_MINDSPORE_HCCL_H

#include <stdint.h>

#include "decode/ascend_comm.h"
#include "util/error.h"

/* Read the hccl_raw CSV at path into c (ops and links, setting has_time
 * and has_matrix). 0, or -1 with err set: the message names the file, the
 * row and column, and for a JSON cell where in it (a character offset or
 * the op and link). */
int tt_comm_load_hccl_raw(tt_comm *c, const char *path, tt_error *err);

/* The communication side files of the trace loaded from trace_path:
 * communication.json / communication_matrix.json in its directory
 * (tt_comm_load_dir, `which` as there), else, for a MindSpore
 * step_trace_raw_N_detail_time.csv, the hccl_raw_N.csv beside it. The
 * result as tt_comm_load_dir's. */
int tt_comm_load_beside(const char *trace_path, unsigned which, tt_comm **out, tt_error *err);

/* The N of a path ".../step_trace_raw_N_detail_time.csv" (the rank: the
 * only place these files write it), or -1 (decode/mindspore_steps.c). */
int64_t tt_mindspore_steps_rank(const char *path);

#endif
