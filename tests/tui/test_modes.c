/* test_modes.c - the table of the view's modes (modes.c, tt_view_def in
 * src/tui/app_impl.h): every tt_view has its row and that row says it is
 * that view; the hooks the app calls without asking (rows, bounds, the
 * row's rank, label width, title, every lane, the box's unit) are there
 * in every row; a mode's own bindings have a section title for the help,
 * an action and no key twice. A new mode (the compare view) added without
 * one of them fails here rather than crashing in the terminal. */
#include "config.h"

#include "../tap.h"
#include "tui/app_impl.h"

#include <stddef.h>

static const tt_view ALL[] = {TT_VIEW_RANK, TT_VIEW_JOB, TT_VIEW_COLLS, TT_VIEW_MATRIX};

static void test_rows(void)
{
    size_t n = 0;
    while (tt_view_at(n))
        n++;
    is_i64((int64_t)n, (int64_t)(sizeof ALL / sizeof ALL[0]), "one row per tt_view");
    for (size_t i = 0; i < sizeof ALL / sizeof ALL[0]; i++) {
        const tt_view_def *m = tt_view_get(ALL[i]);
        ok(m != NULL && m->id == ALL[i], "view %d: its row is its own", (int)ALL[i]);
        ok(tt_view_at((size_t)ALL[i]) == m, "view %d: the i-th row is view i", (int)ALL[i]);
        if (!m)
            continue;
        ok(m->name && m->name[0], "view %d: named", (int)ALL[i]);
        ok(m->build_rows && m->row_home && m->bounds && m->row_rank && m->label_want &&
               m->title && m->all_lanes && m->box_unit,
           "%s: the hooks every mode needs are set", m->name);
        ok((m->fold_flag != NULL) == (m->folds != NULL),
           "%s: folds rows and folds all alike", m->name);
        ok(m->folds || (m->no_fold && m->no_fold_all),
           "%s: says why nothing folds when nothing does", m->name);
        ok(m->legend || m->legend_by, "%s: has a legend", m->name);
    }
}

static void test_keys(void)
{
    for (size_t i = 0; tt_view_at(i); i++) {
        const tt_view_def *m = tt_view_at(i);
        bool good = m->n_keys == 0 || (m->keys && m->section && m->section[0]);
        for (size_t k = 0; good && k < m->n_keys; k++) {
            good = m->keys[k].fn != NULL && m->keys[k].keys[0] != 0;
            for (size_t j = 0; good && j < k; j++)
                for (int x = 0; x < 4 && m->keys[k].keys[x]; x++)
                    for (int y = 0; y < 4 && m->keys[j].keys[y]; y++)
                        if (m->keys[k].keys[x] == m->keys[j].keys[y])
                            good = false;
        }
        ok(good, "%s: its own bindings have a section, actions and distinct keys", m->name);
    }
}

int main(void)
{
    test_rows();
    test_keys();
    return tap_done();
}
