/* test_keys.c - the --keys syntax, key names, and the cell grid (wide
 * characters, cutting, ANSI output). */
#include "config.h"

#include "../tap.h"
#include "tui/grid.h"
#include "tui/input.h"
#include "util/text.h"

#include <locale.h>
#include <stdlib.h>
#include <string.h>

static void test_parse(void)
{
    tt_input *in = NULL;
    size_t n = 0;
    tt_error err;
    int rc = tt_keys_parse("jk<Enter><S-Tab><lt>x<C-c><PgDn><space>\xc3\xa9"
                           "<Click:3,4><S-WheelUp:10,2><Resize:100x30>\t",
                           &in, &n, &err);
    ok(rc == 0, "a key text with every kind of token parses");
    is_i64((int64_t)n, 15, "into 15 events (a click is a press and a release)");
    if (rc == 0 && n == 15) {
        is_i64(in[0].key, 'j', "a character is itself");
        is_i64(in[2].key, TT_KEY_ENTER, "<Enter>");
        is_i64(in[3].key, TT_KEY_BTAB, "<S-Tab>");
        is_i64(in[4].key, '<', "<lt> is a '<'");
        is_i64(in[6].key, 3, "<C-c> is control-C");
        is_i64(in[7].key, TT_KEY_PGDN, "<PgDn>");
        is_i64(in[8].key, ' ', "token names are case-insensitive (<space>)");
        is_i64(in[9].key, 0xe9, "UTF-8 text gives code points");
        ok(in[10].kind == TT_IN_MOUSE && in[10].action == TT_MOUSE_PRESS && in[10].x == 3 &&
           in[10].y == 4, "<Click:3,4> presses at column 3, row 4");
        ok(in[11].kind == TT_IN_MOUSE && in[11].action == TT_MOUSE_RELEASE, "then releases");
        ok(in[12].action == TT_MOUSE_WHEEL_UP && (in[12].mods & TT_MOD_SHIFT) && in[12].x == 10,
           "<S-WheelUp:10,2> is a shifted wheel");
        ok(in[13].kind == TT_IN_RESIZE && in[13].x == 100 && in[13].y == 30, "<Resize:100x30>");
        is_i64(in[14].key, TT_KEY_TAB, "a raw tab is the Tab key");
    }
    free(in);
    rc = tt_keys_parse("ab<Bogus>c", &in, &n, &err);
    ok(rc != 0 && err.column == 3 && strstr(err.what, "<Bogus>") != NULL,
       "an unknown token is an error at its column: %s", err.what);
    rc = tt_keys_parse("a<Enter", &in, &n, &err);
    ok(rc != 0 && err.column == 2, "an unterminated token is an error: %s", err.what);
    rc = tt_keys_parse("<RClick:5,6><DClick:7,8>", &in, &n, &err);
    ok(rc == 0 && n == 6, "a right click is 2 events, a double click 4");
    if (rc == 0 && n == 6) {
        ok(in[0].kind == TT_IN_MOUSE && in[0].action == TT_MOUSE_PRESS && in[0].button == 2 &&
               in[1].action == TT_MOUSE_RELEASE && in[0].x == 5 && in[0].y == 6,
           "<RClick:5,6> presses and releases the right button at 5,6");
        ok(in[2].action == TT_MOUSE_PRESS && in[3].action == TT_MOUSE_RELEASE &&
               in[4].action == TT_MOUSE_DOUBLE && in[5].action == TT_MOUSE_RELEASE &&
               in[4].button == 0 && in[4].x == 7 && in[4].y == 8,
           "<DClick:7,8> is press, release, double press, release of the left button");
    }
    free(in);
    rc = tt_keys_parse("<Click:1>", &in, &n, &err);
    ok(rc != 0, "a mouse token needs X,Y");
    rc = tt_keys_parse("<Resize:0x10>", &in, &n, &err);
    ok(rc != 0, "a resize needs a positive size");
    rc = tt_keys_parse("\xff", &in, &n, &err);
    ok(rc != 0, "invalid UTF-8 is an error");
    rc = tt_keys_parse("", &in, &n, &err);
    ok(rc == 0 && n == 0, "no keys is fine");
    free(in);
    {
        char b[32];
        is_str(tt_key_name(TT_KEY_S_LEFT, b, sizeof b), "S-Left", "key names: S-Left");
        is_str(tt_key_name(12, b, sizeof b), "C-l", "key names: C-l");
        is_str(tt_key_name('w', b, sizeof b), "w", "key names: w");
    }
}

static void test_grid(void)
{
    tt_grid *g = tt_grid_new(10, 2);
    char buf[256];
    FILE *f;
    size_t len;
    int w;
    /* a wide character that does not fit at the end becomes a space */
    w = tt_grid_text(g, 0, 0, 5, "ab\xe6\x95\xb0\xe6\x8d\xae", TT_R_LABEL, 0);
    is_i64(w, 5, "two narrow and one and a half wide characters fill 5 columns");
    ok(tt_grid_at(g, 2, 0)->width == 2 && tt_grid_at(g, 3, 0)->width == 0,
       "a wide character takes a cell and a continuation");
    ok(tt_grid_at(g, 4, 0)->cp == ' ', "the one that does not fit is a space");
    /* overwriting half of it blanks the other half */
    tt_grid_set(g, 3, 0, 'x', TT_R_LABEL, 0);
    ok(tt_grid_at(g, 2, 0)->cp == ' ' && tt_grid_at(g, 2, 0)->width == 1,
       "overwriting the right half of a wide character blanks the left");
    w = tt_grid_text_fit(g, 0, 1, 6, "abcdefghij", TT_R_LABEL, 0, '~');
    is_i64(w, 6, "a cut text takes exactly its width");
    ok(tt_grid_at(g, 5, 1)->cp == '~', "and ends with the ellipsis");
    tt_grid_text(g, 8, 1, 10, "\xcc\x81z", TT_R_LABEL, 0);
    ok(tt_grid_at(g, 8, 1)->cp == 'z', "zero-width characters are dropped");
    f = tmpfile();
    tt_grid_print(g, f, false, TT_COLORS_NONE);
    len = (size_t)ftell(f);
    rewind(f);
    buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
    fclose(f);
    is_str(buf, "ab x\nabcde~  z\n", "plain output: one line per row, trailing blanks cut");
    ok(len == strlen(buf), "nothing else");
    f = tmpfile();
    tt_grid_print(g, f, true, TT_COLORS_256);
    rewind(f);
    buf[fread(buf, 1, sizeof buf - 1, f)] = '\0';
    fclose(f);
    ok(strncmp(buf, "\033[0;38;5;250mab", 15) == 0,
       "ANSI output starts with the label style: %.14s", buf + 1);
    ok(strstr(buf, "\033[0m\n") != NULL, "and resets at the end of each line");
    tt_grid_free(g);
    g = tt_grid_new(0, 0);
    ok(g != NULL && tt_grid_resize(g, 3, 1) == 0 && g->cols == 3, "grids can start empty and grow");
    tt_grid_set(g, 5, 5, 'x', 0, 0);
    tt_grid_set(g, -1, 0, 'x', 0, 0);
    tt_grid_text(g, 2, 0, 100, "long text", 0, 0);
    ok(tt_grid_at(g, 2, 0)->cp == 'l', "writes outside are clipped");
    tt_grid_free(g);
}

int main(void)
{
    test_parse();
    /* the grid measures characters with the locale's wcwidth */
    if (setlocale(LC_ALL, "C.UTF-8") || setlocale(LC_ALL, "en_US.UTF-8")) {
        tt_text_set_utf8(true);
        test_grid();
    } else {
        diag("no UTF-8 locale: grid tests skipped");
    }
    return tap_done();
}
