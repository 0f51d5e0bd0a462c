/* json.c - small cJSON helpers (see json.h). */
#include "config.h"

#include "util/json.h"

#include <inttypes.h>
#include <stdio.h>

cJSON *tt_json_int(int64_t v)
{
    char num[32];
    snprintf(num, sizeof num, "%" PRId64, v);
    return cJSON_CreateRaw(num);
}

cJSON *tt_json_add_int(cJSON *o, const char *k, int64_t v)
{
    cJSON *item = tt_json_int(v);
    if (!item || !cJSON_AddItemToObject(o, k, item)) {
        cJSON_Delete(item);
        return NULL;
    }
    return item;
}
