/* rule_host_calls.c - host API names (see rule_host_calls.h). */
#include "config.h"

#include "rules/rule_host_calls.h"

#include <string.h>

static bool starts(const char *s, const char *p)
{
    return strncmp(s, p, strlen(p)) == 0;
}

bool rule_is_sync_copy_call(const char *name)
{
    static const char *const prefixes[] = {
        "cudaMemcpy", "cudaMemset", "cuMemcpy", "cuMemset", "hipMemcpy", "hipMemset",
        "aclrtMemcpy", "aclrtMemset",
    };
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++)
        if (starts(name, prefixes[i]))
            return strstr(name, "Async") == NULL;
    return false;
}

bool rule_is_sync_call(const char *name)
{
    static const char *const names[] = {
        "cudaDeviceSynchronize", "cudaStreamSynchronize", "cudaEventSynchronize",
        "cudaThreadSynchronize", "cuCtxSynchronize", "cuStreamSynchronize",
        "cuEventSynchronize", "hipDeviceSynchronize", "hipStreamSynchronize",
        "hipEventSynchronize", "aclrtSynchronizeDevice", "aclrtSynchronizeStream",
        "aclrtSynchronizeEvent",
    };
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
        size_t n = strlen(names[i]);
        /* "cudaStreamSynchronize" and versioned "cuStreamSynchronize_v2" */
        if (strncmp(name, names[i], n) == 0 && (name[n] == '\0' || name[n] == '_'))
            return true;
    }
    return false;
}

bool rule_is_api_call(const char *name)
{
    static const char *const prefixes[] = {"cuda", "cu", "hip", "aclrt"};
    for (size_t i = 0; i < sizeof prefixes / sizeof prefixes[0]; i++) {
        size_t n = strlen(prefixes[i]);
        if (strncmp(name, prefixes[i], n) == 0 && name[n] >= 'A' && name[n] <= 'Z')
            return true;
    }
    return false;
}
