/* term.h - the one owner of the terminal.
 *
 * term.c is the only file that talks to curses. It sets the terminal up
 * (newterm, cbreak, noecho, keypad, invisible cursor, colors at the depth
 * the terminal has: 256, 8 or none, none also when NO_COLOR is set), turns
 * key presses and xterm SGR (1006) mouse reports into tt_input events for
 * the app (a second left press on the same cell within 400 ms becomes a
 * double click, so the app needs no clock), copies the app's cell grid to
 * the screen (curses sends only what changed), and restores the terminal
 * on every way out: quit, error, SIGINT/SIGTERM/SIGHUP (a flag and a
 * self-pipe wake the loop; no curses call ever runs in a signal handler),
 * Ctrl-Z (suspend and resume), and
 * fatal signals (SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT, Ctrl-\'s SIGQUIT,
 * SIGTRAP, SIGSYS, SIGXCPU, SIGXFSZ: the handler only write()s precomputed
 * reset sequences and the saved tty modes, then dies of the same signal).
 *
 * It redraws only after input or a resize: the loop blocks in poll() on
 * the terminal and the self-pipe, with no timeout.
 */
#ifndef TT_TUI_TERM_H
#define TT_TUI_TERM_H

#include "model/trace.h"
#include "tui/app.h"
#include "tui/cmpview.h"
#include "util/error.h"

/* Browse tr until the user quits. Returns 0 with *sig = 0 after a quit,
 * 0 with *sig set to the signal that ended the session (SIGINT, SIGTERM,
 * SIGHUP: the caller re-raises it after cleaning up), or -1 with err set
 * (the terminal is restored before returning in every case). */
int tt_term_run(const tt_trace *tr, const tt_app_opts *opts, int *sig, tt_error *err);

/* The same for the compare view of a (above) and b (below): `tracetty
 * diff A B` on a terminal. Returns as tt_term_run. */
int tt_compare_view_run(const tt_cmp_side *a, const tt_cmp_side *b, const tt_cmp_opts *opts,
                        int *sig, tt_error *err);

#endif
