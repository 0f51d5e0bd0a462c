/* rule_host_calls.h - recognising host API calls by name, shared by the
 * `sync-memcpy` and `host-sync` rules. */
#ifndef TT_RULES_HOST_CALLS_H
#define TT_RULES_HOST_CALLS_H

#include <stdbool.h>

/* A synchronous copy or memset call: cudaMemcpy*, cudaMemset*, cuMemcpy*,
 * cuMemset*, hipMemcpy*, hipMemset*, aclrtMemcpy* without "Async". */
bool rule_is_sync_copy_call(const char *name);

/* A call that blocks the host until the device catches up:
 * cuda/hip/cu Device, Stream, Event and Context synchronize, and Ascend's
 * aclrtSynchronize*. */
bool rule_is_sync_call(const char *name);

/* A runtime or driver API call rather than the user's code: a name of
 * cuda, cu, hip or aclrt followed by a capital (cudaLaunchKernel,
 * cuEventRecord, hipMemcpyAsync, aclrtSynchronizeStream). */
bool rule_is_api_call(const char *name);

#endif
